// Where a client (the CLI, the stdio MCP server) finds the service: flags first, then the
// environment. Read once at the start of a command and passed down; nothing else reads process.env.
import { ApiError } from "./api-client.js";

export interface ClientSettings {
  /** The service's address, without a trailing slash. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** The database a command works on when it names none. */
  readonly database: string | null;
  /** The collection (sub-tenant) within it, when one is set. */
  readonly collection: string | null;
}

export interface ClientFlags {
  readonly url?: string | undefined;
  readonly apiKey?: string | undefined;
  readonly database?: string | undefined;
  readonly collection?: string | undefined;
}

/** The default address: the service's own default port on this machine. */
export const DEFAULT_SERVICE_URL = "http://127.0.0.1:8080";

const nonEmpty = (value: string | undefined): string | null => (value === undefined || value.trim() === "" ? null : value.trim());

/**
 * The settings from flags, falling back to CONTEXT_STORE_URL, CONTEXT_STORE_API_KEY,
 * CONTEXT_STORE_DATABASE and CONTEXT_STORE_COLLECTION. A missing key or a malformed URL is an
 * ApiError with the INVALID_INPUT code, so commands report it like any other refusal.
 */
export function resolveClientSettings(flags: ClientFlags, env: Readonly<Record<string, string | undefined>>): ClientSettings {
  const url = nonEmpty(flags.url) ?? nonEmpty(env.CONTEXT_STORE_URL) ?? DEFAULT_SERVICE_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError(0, "INVALID_INPUT", `the service URL '${url}' is not a URL (set --url or CONTEXT_STORE_URL, such as ${DEFAULT_SERVICE_URL})`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ApiError(0, "INVALID_INPUT", `the service URL must be http or https, not ${parsed.protocol}`);
  }
  const apiKey = nonEmpty(flags.apiKey) ?? nonEmpty(env.CONTEXT_STORE_API_KEY);
  if (apiKey === null) {
    throw new ApiError(0, "INVALID_INPUT", "no API key: set --api-key or CONTEXT_STORE_API_KEY (the service prints one at its first start)");
  }
  return {
    baseUrl: url.replace(/\/+$/, ""),
    apiKey,
    database: nonEmpty(flags.database) ?? nonEmpty(env.CONTEXT_STORE_DATABASE),
    collection: nonEmpty(flags.collection) ?? nonEmpty(env.CONTEXT_STORE_COLLECTION),
  };
}
