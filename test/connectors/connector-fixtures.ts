import { createReadyDatabase, eventually, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { FakeGithub } from "../helpers/fake-providers/github.js";
import { FakeSlack } from "../helpers/fake-providers/slack.js";

export const SLACK_TOKEN = "xoxb-fake-token";
export const GITHUB_TOKEN = "ghp_fake_token";
export const SECRET_KEY = "connector-test-key-0123456789abcdef";

export interface ConnectorWorld {
  t: TestApp;
  slack: FakeSlack;
  github: FakeGithub;
  close(): Promise<void>;
}

/** The real service beside a fake Slack and a fake GitHub, with a ready database `db`. */
export async function startConnectorWorld(): Promise<ConnectorWorld> {
  const slack = await FakeSlack.start({ token: SLACK_TOKEN });
  const github = await FakeGithub.start({ token: GITHUB_TOKEN, login: "acme" });
  try {
    const t = await startTestApp({ CONNECTOR_SLACK_API_URL: slack.url, CONNECTOR_GITHUB_API_URL: github.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
    await createReadyDatabase(t, "db");
    return {
      t,
      slack,
      github,
      async close() {
        await t.close();
        await slack.close();
        await github.close();
      },
    };
  } catch (err) {
    await slack.close();
    await github.close();
    throw err;
  }
}

export function expectStatus(res: HttpResult, status: number, what: string): Record<string, unknown> {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res.body;
}

export async function connector(t: TestApp, id: string): Promise<Record<string, unknown>> {
  return expectStatus(await t.request("GET", `/connectors/${id}`), 200, "get connector");
}

/** Waits until the connector's run has ended (idle) and returns the record. */
export async function settled(t: TestApp, id: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  return eventually(async () => {
    const c = await connector(t, id);
    return c.sync_status === "idle" ? c : null;
  }, timeoutMs);
}

/** A Slack connector on database "db" with the fake's token; returns its id. */
export async function createSlackConnector(t: TestApp): Promise<string> {
  const body = { provider: "slack", database: "db", credentials: { access_token: SLACK_TOKEN } };
  return String(expectStatus(await t.request("POST", "/connectors", { body }), 201, "create").connector_id);
}

export async function syncNow(t: TestApp, id: string): Promise<Record<string, unknown>> {
  expectStatus(await t.request("POST", `/connectors/${id}/sync`), 202, "sync");
  return settled(t, id);
}

/** Items a connector wrote, by source id. */
export async function connectorItems(
  t: TestApp,
  connectorId: string,
): Promise<
  Map<string, { content: string; generation: number; acl: string | null; parent_id: string | null; thread_id: string | null; additional_metadata: string }>
> {
  const rows = await t.app.store.db
    .selectFrom("context_items")
    .select(["source_id", "content", "generation", "acl", "parent_id", "thread_id", "additional_metadata"])
    .where("connector_id", "=", connectorId)
    .execute();
  return new Map(rows.map((r) => [r.source_id, { ...r, content: r.content ?? "" }]));
}
