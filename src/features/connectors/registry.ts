import type { ConnectorApiUrls } from "../../platform/config.js";
import { createGithubProvider } from "./github/index.js";
import { createGmailProvider } from "./gmail/index.js";
import { createLinearProvider } from "./linear/index.js";
import { createNotionProvider } from "./notion/index.js";
import { PROVIDER_IDS, type ConnectorProvider, type ProviderId } from "./provider.js";
import { createSlackProvider } from "./slack/index.js";

/** The providers this service runs, by id. Adding one: a folder with the contract + a line here. */
export class ProviderRegistry {
  constructor(private readonly providers: ReadonlyMap<ProviderId, ConnectorProvider>) {}

  get(id: string): ConnectorProvider | undefined {
    return (PROVIDER_IDS as readonly string[]).includes(id) ? this.providers.get(id as ProviderId) : undefined;
  }

  /** Every provider of the contract, with whether this deployment supports it yet. */
  all(): Array<{ id: ProviderId; provider: ConnectorProvider | undefined }> {
    return PROVIDER_IDS.map((id) => ({ id, provider: this.providers.get(id) }));
  }
}

export function createProviderRegistry(urls: ConnectorApiUrls, now: () => number = Date.now): ProviderRegistry {
  return new ProviderRegistry(
    new Map<ProviderId, ConnectorProvider>([
      ["slack", createSlackProvider(urls.slack, now)],
      ["github", createGithubProvider(urls.github, now)],
      ["linear", createLinearProvider(urls.linear, now)],
      ["notion", createNotionProvider(urls.notion, now)],
      ["gmail", createGmailProvider(urls.gmail, urls.googleToken, now)],
    ]),
  );
}
