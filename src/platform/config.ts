import { isIP } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Configuration is parsed once, at boot, from the environment into a frozen object.
 * No other module reads process.env: everything it needs is passed from here.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** SQLite: bytes the write-ahead log is truncated to once checkpointed (SQLITE_WAL_LIMIT_MB). */
  readonly sqliteWalLimitBytes: number;
  readonly logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /**
   * How log lines are written on stdout (LOG_FORMAT): `json`, one JSON object a line, for log
   * collectors; `pretty`, readable lines (pino-pretty) for a terminal; `auto` (default), pretty when
   * stdout is a terminal and JSON otherwise (a pipe, a file, a container's log).
   */
  readonly logFormat: "auto" | "json" | "pretty";
  /** postgres://... selects the PostgreSQL backend; null means SQLite in dataDir. */
  readonly databaseUrl: string | null;
  readonly bootstrapApiKeys: readonly string[];
  readonly webhookAllowPrivateUrls: boolean;
  /**
   * SECRET_KEY: the master key that encrypts secrets at rest (connector credentials, webhook
   * signing secrets, the file-URL secret); null uses DATA_DIR/secret.key, made on first start.
   */
  readonly secretKey: string | null;
  /** SECRET_KEY_PREVIOUS: earlier master keys (comma-separated), which open secrets until they are re-sealed. */
  readonly secretKeyPrevious: readonly string[];
  /** Legacy: opens webhook signing secrets sealed before SECRET_KEY existed (they are re-sealed at start). */
  readonly webhookSecretKey: string | null;
  /** Delivery attempts per event before its record ends failed. */
  readonly webhookMaxAttempts: number;
  /** First retry delay of a failed delivery; doubles per attempt with jitter, capped at webhookRetryMaxMs. */
  readonly webhookRetryBaseMs: number;
  readonly webhookRetryMaxMs: number;
  /** Budget of one delivery attempt (DNS, connect, redirects, response). */
  readonly webhookTimeoutMs: number;
  /** Per-organization cap on databases (403 FORBIDDEN beyond it). */
  readonly maxDatabasesPerOrg: number;
  /** Requests per minute per API key; 0 disables the limiter. */
  readonly rateLimitPerMinute: number;
  /**
   * Failed authentications (a key that is not valid) per client address in any sliding minute
   * (AUTH_FAILURES_PER_MINUTE, default 60; 0: no limit). Past it, every request of that address
   * that needs a key is answered 429 RATE_LIMITED with Retry-After, its key not looked up, until the
   * minute has slid below the budget. Other addresses are not affected; successes are not counted.
   * Counted in the store with PostgreSQL or PROCESSES above 1, so that every process shares it.
   */
  readonly authFailuresPerMinute: number;
  /**
   * Reverse proxies in front of the service (TRUSTED_PROXIES, comma-separated addresses, CIDR
   * ranges, or loopback / linklocal / uniquelocal): a request from one of them is taken to come
   * from the client its X-Forwarded-For names. Empty (default): the socket's address is the
   * client's. Behind a proxy, set it: otherwise every client shares the proxy's address, and one
   * client's failed authentications lock the others out.
   */
  readonly trustedProxies: readonly string[];
  /** Feedback submissions per minute per organization (counted in the store, across processes). */
  readonly feedbackPerMinute: number;
  /** How long answered queries' log entries gather before one insert (feedback checks its request id against them). */
  readonly queryLogFlushMs: number;
  /**
   * Service processes on this port (PROCESSES, default 1): with more than one, a primary process
   * forks them (Node cluster); the first runs the job workers, the others answer requests only,
   * and the per-key rate limits are kept in the store so that every process shares them.
   */
  readonly processes: number;
  /** Run job workers in this process (api-only nodes set WORKERS=0). */
  readonly workerConcurrency: number;
  /**
   * Concurrent indexing jobs (0 when WORKERS is 0): enough to keep the embedder's batches full.
   * Default 32 with an in-process embedder (it is the bottleneck), 256 with an endpoint (the pipeline's
   * costs per group write are then what limits, and more items share each one).
   */
  readonly ingestConcurrency: number;
  /** Bytes of items (stored content or file size) the indexing jobs may hold at once (INGEST_MEMORY_MB). */
  readonly ingestMemoryBytes: number;
  readonly jobLeaseMs: number;
  readonly jobPollMs: number;
  /** Load the in-process search indexes of stored scopes at start, not on their first query. */
  readonly warmUpIndexes: boolean;
  /** BM25 postings held in memory at most, over every scope; least recently used scopes beyond it are dropped. */
  readonly searchIndexMaxPostings: number;
  /** Max JSON body size for v2 routes. */
  readonly bodyLimitBytes: number;
  /**
   * Requests one keep-alive connection may carry before the server closes it (0: no limit). With
   * PROCESSES > 1 the cluster hands out connections, not requests, and a client's pool sends most
   * requests on its first free connection: one process took 100% of a core while the other idled at
   * 13-45% (bench:load). Closing a connection after this many requests makes clients reconnect, and
   * the new connection goes to the next process.
   */
  readonly maxRequestsPerConnection: number;
  /** How long a client may take to send a request's headers and body (HTTP_*_TIMEOUT_MS); see HttpTimeouts. */
  readonly httpTimeouts: HttpTimeouts;
  /** How often lost pipeline jobs are looked for (the ingest.reconcile job's interval). */
  readonly reconcileIntervalMs: number;
  /** How often due connectors are looked for (the connector.schedule job). */
  readonly connectorScheduleMs: number;
  /** A non-terminal item untouched this long is checked by reconcile for a lost or dead job. */
  readonly reconcileStaleAfterMs: number;
  /** The whole shutdown (server, jobs, vector indexes, embedder, store) fits in this; the rest is abandoned. */
  readonly shutdownTimeoutMs: number;
  /** Largest uploaded file accepted by /context/ingest (400 FILE_TOO_LARGE beyond). */
  readonly maxUploadBytes: number;
  /** All file parts of one multipart request together (413 PAYLOAD_TOO_LARGE beyond, nothing stored). */
  readonly maxRequestUploadBytes: number;
  /** File parts in one multipart request (413 PAYLOAD_TOO_LARGE beyond). */
  readonly maxUploadFiles: number;
  /** Uncompressed size of all entries of one DOCX (or other zip-based) upload; beyond it the file fails FILE_TOO_LARGE. */
  readonly maxArchiveUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio of one archive entry; beyond it the file fails FILE_TOO_LARGE. */
  readonly maxArchiveCompressionRatio: number;
  /** Worker threads that parse uploaded files (each bounded in time and heap). */
  readonly parseWorkers: number;
  /** Heap cap of one parser worker; a file needing more fails PROCESSING_FAILED. */
  readonly parseWorkerMemoryMb: number;
  /** Longest one file's parse may take; past it its worker is stopped and the file fails PROCESSING_FAILED. */
  readonly parseTimeoutMs: number;
  /** Base of links the service hands out (presigned_url); null: http://HOST:<bound port>. Never the Host header. */
  readonly publicUrl: string | null;
  readonly embedding: EmbeddingConfig;
  /** An OpenAI-compatible chat model for memory inference and relation extraction; null: offline rules. */
  readonly chatModel: ChatModelSettings | null;
  /** The models thinking-mode queries may ask (a rerank endpoint, the chat model's steps); see queryModels(). */
  readonly queryModels: QueryModelSettings;
  readonly chunkMaxTokens: number;
  readonly chunkOverlapTokens: number;
  /** Signs file download URLs; null: a random secret generated once and kept in the store. */
  readonly fileUrlSecret: string | null;
  /** Graph area: time budget of one Cypher query; past it the query is rolled back (400). */
  readonly graphQueryTimeoutMs: number;
  /** Graph area: rows returned at most per query; further rows are dropped. */
  readonly graphMaxRows: number;
  /** Graph area: query worker threads; each holds its own cache of collection graphs. */
  readonly graphWorkers: number;
  /**
   * Entity extraction worker threads (graph building, the names a query mentions); 0 (default) runs
   * it on the request thread, which measured faster on 2 cores (bench:load at 40 requests/s).
   */
  readonly extractionWorkers: number;
  /** Nice value of the background indexing threads (embedding batches, graph extraction); 0 leaves them equal to requests. */
  readonly indexingNice: number;
  /** Graph area: heap cap of one query worker in MB; a worker past it is terminated and replaced. */
  readonly graphWorkerMemoryMb: number;
  /** Graph area: queries one organization may have in flight; beyond it 429 RATE_LIMITED. */
  readonly graphMaxConcurrentPerOrg: number;
  /** Graph area: longest list a query may build, and most rows it may hold at once. */
  readonly graphMaxListLength: number;
  /** Graph area: longest string a query may build (UTF-16 code units). */
  readonly graphMaxStringLength: number;
  /**
   * Graph area: most steps one `=~` match may take, counted as the string's length times the
   * compiled pattern's instruction count (the linear-time engine's worst case, 10 to 30 ns a step);
   * past it 400 QUERY_TOO_LARGE. The default bounds one match to about half a second: a 4 MB string
   * against a 5-instruction pattern, or 20 kB against a 1,000-instruction one.
   */
  readonly graphMaxRegexWork: number;
  /** Legacy: opens connector credentials sealed before SECRET_KEY existed (they are re-sealed at start). */
  readonly connectorSecretKey: string | null;
  /** Base URLs of the providers' APIs (GitHub Enterprise, proxies, local fakes). */
  readonly connectorApiUrls: ConnectorApiUrls;
  /**
   * Host header values /mcp takes besides its own names (MCP_ALLOWED_HOSTS, comma-separated
   * `host[:port]`): a proxy's public name, when it forwards its own Host. Loopback, the listening
   * address and PUBLIC_URL's host at the bound port are always allowed; any other Host is 403.
   */
  readonly mcpAllowedHosts: readonly string[];
  /**
   * Origin header values /mcp takes besides those of the allowed hosts (MCP_ALLOWED_ORIGINS,
   * comma-separated `scheme://host[:port]`): a browser-based MCP client served from elsewhere.
   */
  readonly mcpAllowedOrigins: readonly string[];
  /** Bearer token GET /metrics requires; null: /metrics is open like /healthz (it names no organization). */
  readonly metricsToken: string | null;
  /** The built web console served at /console/ (`npm run build` writes it). */
  readonly consoleDir: string;
}

/**
 * How long a client may take to send its request: a connection that holds the server without
 * sending (half-open, or trickling its headers or body) is answered 408 and closed. Sized so a
 * large upload on a slow link goes through: the body's budget is a silence, not a total.
 */
export interface HttpTimeouts {
  /** HTTP_HEADERS_TIMEOUT_MS (default 15 s): from the connection (or its previous request) to the end of the headers. */
  readonly headersMs: number;
  /** HTTP_BODY_IDLE_TIMEOUT_MS (default 30 s; 0: none): the longest silence while a request body is received. */
  readonly bodyIdleMs: number;
  /**
   * HTTP_REQUEST_TIMEOUT_MS (default 1 hour; 0: none): the whole request, headers and body, received
   * within it; the backstop against a body trickled one byte per silence. An hour carries
   * MAX_REQUEST_UPLOAD_BYTES (200 MB) at about 0.5 Mbit/s.
   */
  readonly requestMs: number;
}

export interface ConnectorApiUrls {
  readonly slack: string;
  readonly github: string;
  readonly linear: string;
  readonly notion: string;
  readonly gmail: string;
  readonly googleToken: string;
}

export type EmbeddingConfig =
  | { provider: "local"; workers: number; queryWorkers: number; batchNice: number; precision: "int8" | "float32" }
  | { provider: "openai"; baseUrl: string; apiKey: string | null; model: string; dimensions: number }
  | { provider: "transformers"; model: string; localModelPath: string | null; dimensions: number | null };

export interface ChatModelSettings {
  readonly baseUrl: string;
  readonly apiKey: string | null;
  readonly model: string;
}

/** What thinking-mode queries ask of models, when configured; every step falls back to the offline ranking. */
export interface QueryModelSettings {
  /** A reranker (a Cohere-style endpoint, or a cross-encoder run in process); when set, it reranks instead of the chat model. */
  readonly rerank: RerankSettings | null;
  /** The steps the chat model (LLM_*) takes in thinking-mode queries. */
  readonly chatSteps: ReadonlySet<QueryChatStep>;
  /** Budget of one model call in a query; past it the query goes on without it. */
  readonly timeoutMs: number;
}

export type RerankSettings =
  ({ readonly provider: "openai" } & ChatModelSettings) | { readonly provider: "transformers"; readonly model: string; readonly localModelPath: string | null };

export const QUERY_CHAT_STEPS = ["expand", "rerank"] as const;
export type QueryChatStep = (typeof QUERY_CHAT_STEPS)[number];

export class ConfigError extends Error {}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const LOG_FORMATS = ["auto", "json", "pretty"] as const;

type Env = Readonly<Record<string, string | undefined>>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${raw}'`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got '${raw}'`);
}

function logLevel(env: Env): Config["logLevel"] {
  const raw = (env.LOG_LEVEL ?? "info").trim().toLowerCase();
  const found = LOG_LEVELS.find((l) => l === raw);
  if (!found) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got '${raw}'`);
  return found;
}

function logFormat(env: Env): Config["logFormat"] {
  const raw = (env.LOG_FORMAT ?? "auto").trim().toLowerCase() || "auto";
  const found = LOG_FORMATS.find((f) => f === raw);
  if (!found) throw new ConfigError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(", ")}, got '${raw}'`);
  return found;
}

function databaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError("DATABASE_URL must start with postgres:// or postgresql://");
  }
  return raw;
}

function required(env: Env, name: string, why: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${name} is required ${why}`);
  return value;
}

function embedding(env: Env): EmbeddingConfig {
  const provider = (env.EMBEDDING_PROVIDER ?? "local").trim().toLowerCase();
  switch (provider) {
    case "local":
      return {
        provider,
        workers: int(env, "EMBEDDING_WORKERS", 2, 1, 16),
        queryWorkers: int(env, "EMBEDDING_QUERY_WORKERS", 1, 0, 4),
        batchNice: int(env, "INDEXING_NICE", 10, 0, 19),
        precision: precision(env),
      };
    case "openai":
      return {
        provider,
        baseUrl: required(env, "EMBEDDING_BASE_URL", "with EMBEDDING_PROVIDER=openai"),
        apiKey: env.EMBEDDING_API_KEY?.trim() || null,
        model: required(env, "EMBEDDING_MODEL", "with EMBEDDING_PROVIDER=openai"),
        dimensions: int(env, "EMBEDDING_DIMENSIONS", 1536, 1, 65536),
      };
    case "transformers":
      return {
        provider,
        model: required(env, "EMBEDDING_MODEL", "with EMBEDDING_PROVIDER=transformers"),
        localModelPath: env.EMBEDDING_MODEL_PATH?.trim() || null,
        dimensions: env.EMBEDDING_DIMENSIONS ? int(env, "EMBEDDING_DIMENSIONS", 384, 1, 65536) : null,
      };
    default:
      throw new ConfigError(`EMBEDDING_PROVIDER must be local, openai or transformers, got '${provider}'`);
  }
}

function precision(env: Env): "int8" | "float32" {
  const value = (env.EMBEDDING_PRECISION ?? "int8").trim().toLowerCase();
  if (value !== "int8" && value !== "float32") throw new ConfigError(`EMBEDDING_PRECISION must be int8 or float32, got '${value}'`);
  return value;
}

function chatModel(env: Env): ChatModelSettings | null {
  const baseUrl = env.LLM_BASE_URL?.trim();
  if (!baseUrl) return null;
  return { baseUrl, apiKey: env.LLM_API_KEY?.trim() || null, model: required(env, "LLM_MODEL", "with LLM_BASE_URL") };
}

function rerankSettings(env: Env): RerankSettings | null {
  const baseUrl = env.RERANK_BASE_URL?.trim();
  const provider = env.RERANK_PROVIDER?.trim().toLowerCase() || (baseUrl ? "openai" : "");
  switch (provider) {
    case "":
      return null;
    case "openai":
      return {
        provider,
        baseUrl: baseUrl || required(env, "RERANK_BASE_URL", "with RERANK_PROVIDER=openai"),
        apiKey: env.RERANK_API_KEY?.trim() || null,
        model: required(env, "RERANK_MODEL", "with RERANK_BASE_URL"),
      };
    case "transformers":
      return {
        provider,
        model: required(env, "RERANK_MODEL", "with RERANK_PROVIDER=transformers"),
        localModelPath: env.RERANK_MODEL_PATH?.trim() || null,
      };
    default:
      throw new ConfigError(`RERANK_PROVIDER must be openai or transformers, got '${provider}'`);
  }
}

function queryModels(env: Env): QueryModelSettings {
  const rerank = rerankSettings(env);
  const raw = (env.LLM_QUERY_STEPS?.trim() || "expand,rerank").toLowerCase();
  const steps = raw === "none" ? [] : raw.split(",").map((s) => s.trim());
  const unknown = steps.filter((s) => !(QUERY_CHAT_STEPS as readonly string[]).includes(s));
  if (unknown.length > 0 || (raw !== "none" && steps.length === 0))
    throw new ConfigError(`LLM_QUERY_STEPS must be 'none' or a comma-separated list of ${QUERY_CHAT_STEPS.join(", ")}, got '${raw}'`);
  return { rerank, chatSteps: new Set(steps as QueryChatStep[]), timeoutMs: int(env, "QUERY_MODEL_TIMEOUT_MS", 8_000, 100, 600_000) };
}

/** Bootstrap keys are full credentials of the first organization: short ones are guessable. */
const MIN_BOOTSTRAP_KEY_LENGTH = 32;

function bootstrapKeys(env: Env): readonly string[] {
  const keys = (env.BOOTSTRAP_API_KEY ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
  keys.forEach((key, i) => {
    if (key.length < MIN_BOOTSTRAP_KEY_LENGTH) {
      throw new ConfigError(
        `BOOTSTRAP_API_KEY: key ${i + 1} of ${keys.length} has ${key.length} characters; each key needs at least ${MIN_BOOTSTRAP_KEY_LENGTH} (for example: openssl rand -hex 24)`,
      );
    }
  });
  return Object.freeze(keys);
}

function publicUrl(env: Env): string | null {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`PUBLIC_URL must use http or https, got '${url.protocol}'`);
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError("PUBLIC_URL must not carry credentials, a query or a fragment");
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function secretKey(env: Env): string | null {
  const raw = env.SECRET_KEY?.trim();
  if (!raw) return null;
  if (raw.length < 32) throw new ConfigError("SECRET_KEY must be at least 32 characters (e.g. openssl rand -base64 32)");
  return raw;
}

function secretKeyPrevious(env: Env): string[] {
  const keys = (env.SECRET_KEY_PREVIOUS ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "");
  if (keys.some((k) => k.length < 32)) throw new ConfigError("every key in SECRET_KEY_PREVIOUS must be at least 32 characters");
  return keys;
}

function fileUrlSecret(env: Env): string | null {
  const raw = env.FILE_URL_SECRET?.trim();
  if (!raw) return null;
  if (raw.length < 16) throw new ConfigError("FILE_URL_SECRET must be at least 16 characters");
  return raw;
}

function metricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN?.trim();
  if (!raw) return null;
  if (raw.length < 16) throw new ConfigError("METRICS_TOKEN must be at least 16 characters");
  if (!/^[\x21-\x7e]+$/.test(raw)) throw new ConfigError("METRICS_TOKEN must be printable ASCII without spaces (it is sent as a bearer token)");
  return raw;
}

function httpUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(`${name} must be an http(s) URL, got '${raw}'`);
  return raw.replace(/\/+$/, "");
}

function httpTimeouts(env: Env): HttpTimeouts {
  const headersMs = int(env, "HTTP_HEADERS_TIMEOUT_MS", 15_000, 100, 600_000);
  const requestMs = int(env, "HTTP_REQUEST_TIMEOUT_MS", 3_600_000, 0, 24 * 3_600_000);
  if (requestMs > 0 && requestMs < headersMs) {
    throw new ConfigError(`HTTP_REQUEST_TIMEOUT_MS (${requestMs}) must be 0 or at least HTTP_HEADERS_TIMEOUT_MS (${headersMs})`);
  }
  return Object.freeze({ headersMs, bodyIdleMs: int(env, "HTTP_BODY_IDLE_TIMEOUT_MS", 30_000, 0, 3_600_000), requestMs });
}

const commaList = (raw: string | undefined): string[] =>
  (raw ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

/** `raw` as a URL that is an origin only (nothing after the host and port), or null. */
function originOnly(raw: string): URL | null {
  try {
    const url = new URL(raw);
    const bare = (url.protocol === "http:" || url.protocol === "https:") && url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    return bare && !raw.includes("?") && !raw.includes("#") ? url : null;
  } catch {
    // Not a URL at all: the caller's message names the value and the form it must take.
    return null;
  }
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function trustedProxies(env: Env): readonly string[] {
  return Object.freeze(
    commaList(env.TRUSTED_PROXIES).map((raw) => {
      const [address = "", prefix, extra] = raw.split("/");
      const family = isIP(address);
      const bits = family === 4 ? 32 : 128;
      const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
      if (PROXY_NAMES.has(raw.toLowerCase())) return raw.toLowerCase();
      if (family === 0 || !prefixOk || extra !== undefined) {
        throw new ConfigError(`TRUSTED_PROXIES: '${raw}' is not an address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`);
      }
      return raw;
    }),
  );
}

function mcpAllowedHosts(env: Env): readonly string[] {
  return Object.freeze(
    commaList(env.MCP_ALLOWED_HOSTS).map((raw) => {
      const url = raw.includes("/") || raw.includes("@") ? null : originOnly(`http://${raw}`);
      if (url === null) throw new ConfigError(`MCP_ALLOWED_HOSTS: '${raw}' is not a host or host:port (e.g. ctx.example.com or ctx.example.com:8443)`);
      return url.host;
    }),
  );
}

function mcpAllowedOrigins(env: Env): readonly string[] {
  return Object.freeze(
    commaList(env.MCP_ALLOWED_ORIGINS).map((raw) => {
      const url = originOnly(raw);
      if (url === null) throw new ConfigError(`MCP_ALLOWED_ORIGINS: '${raw}' is not an http(s) origin (scheme://host[:port], e.g. https://ctx.example.com)`);
      return url.origin;
    }),
  );
}

function connectorApiUrls(env: Env): ConnectorApiUrls {
  return Object.freeze({
    slack: httpUrl(env, "CONNECTOR_SLACK_API_URL", "https://slack.com/api"),
    github: httpUrl(env, "CONNECTOR_GITHUB_API_URL", "https://api.github.com"),
    linear: httpUrl(env, "CONNECTOR_LINEAR_API_URL", "https://api.linear.app/graphql"),
    notion: httpUrl(env, "CONNECTOR_NOTION_API_URL", "https://api.notion.com"),
    gmail: httpUrl(env, "CONNECTOR_GMAIL_API_URL", "https://gmail.googleapis.com"),
    googleToken: httpUrl(env, "CONNECTOR_GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token"),
  });
}

// This file sits two levels under the package root both as source (src/platform) and built (dist/platform).
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL("../../dist/console", import.meta.url));

/** What the SQLite write-ahead log is cut back to once checkpointed, MB (SQLITE_WAL_LIMIT_MB). */
export const DEFAULT_SQLITE_WAL_LIMIT_MB = 64;

export function loadConfig(env: Env = process.env): Config {
  const embedder = Object.freeze(embedding(env));
  return Object.freeze({
    port: int(env, "PORT", 8080, 0, 65535),
    host: env.HOST?.trim() || "127.0.0.1",
    dataDir: resolve(env.DATA_DIR?.trim() || "./data"),
    sqliteWalLimitBytes: int(env, "SQLITE_WAL_LIMIT_MB", DEFAULT_SQLITE_WAL_LIMIT_MB, 0, 1_000_000) * 1024 * 1024,
    logLevel: logLevel(env),
    logFormat: logFormat(env),
    databaseUrl: databaseUrl(env),
    bootstrapApiKeys: bootstrapKeys(env),
    webhookAllowPrivateUrls: bool(env, "WEBHOOK_ALLOW_PRIVATE_URLS", false),
    secretKey: secretKey(env),
    secretKeyPrevious: secretKeyPrevious(env),
    webhookSecretKey: env.WEBHOOK_SECRET_KEY?.trim() || null,
    webhookMaxAttempts: int(env, "WEBHOOK_MAX_ATTEMPTS", 8, 1, 100),
    webhookRetryBaseMs: int(env, "WEBHOOK_RETRY_BASE_MS", 10_000, 1, 3_600_000),
    webhookRetryMaxMs: int(env, "WEBHOOK_RETRY_MAX_MS", 30 * 60_000, 1, 24 * 3_600_000),
    webhookTimeoutMs: int(env, "WEBHOOK_TIMEOUT_MS", 10_000, 100, 60_000),
    maxDatabasesPerOrg: int(env, "MAX_DATABASES_PER_ORG", 100, 1, 1_000_000),
    rateLimitPerMinute: int(env, "RATE_LIMIT_PER_MINUTE", 1200, 0, 10_000_000),
    authFailuresPerMinute: int(env, "AUTH_FAILURES_PER_MINUTE", 60, 0, 10_000_000),
    trustedProxies: trustedProxies(env),
    feedbackPerMinute: int(env, "FEEDBACK_PER_MINUTE", 100, 1, 10_000_000),
    queryLogFlushMs: int(env, "QUERY_LOG_FLUSH_MS", 50, 1, 60_000),
    processes: int(env, "PROCESSES", 1, 1, 64),
    workerConcurrency: int(env, "WORKERS", 4, 0, 256),
    ingestConcurrency: env.WORKERS?.trim() === "0" ? 0 : int(env, "INGEST_WORKERS", embedder.provider === "openai" ? 256 : 32, 0, 1024),
    ingestMemoryBytes: int(env, "INGEST_MEMORY_MB", 256, 1, 1_048_576) * 1024 * 1024,
    jobLeaseMs: int(env, "JOB_LEASE_MS", 60_000, 500, 3_600_000),
    jobPollMs: int(env, "JOB_POLL_MS", 250, 10, 60_000),
    warmUpIndexes: bool(env, "WARM_UP_INDEXES", true),
    searchIndexMaxPostings: int(env, "SEARCH_INDEX_MAX_POSTINGS", 100_000_000, 1_000, 4_000_000_000),
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxRequestsPerConnection: int(env, "HTTP_MAX_REQUESTS_PER_CONNECTION", 50, 0, 1_000_000),
    httpTimeouts: httpTimeouts(env),
    reconcileIntervalMs: int(env, "RECONCILE_INTERVAL_MS", 60_000, 100, 24 * 3_600_000),
    connectorScheduleMs: int(env, "CONNECTOR_SCHEDULE_MS", 60_000, 100, 3_600_000),
    reconcileStaleAfterMs: int(env, "RECONCILE_STALE_AFTER_MS", 2 * 60_000, 0, 7 * 24 * 3_600_000),
    shutdownTimeoutMs: int(env, "SHUTDOWN_TIMEOUT_MS", 25_000, 100, 600_000),
    maxUploadBytes: int(env, "MAX_UPLOAD_BYTES", 50 * 1024 * 1024, 1024, 2 * 1024 * 1024 * 1024),
    maxRequestUploadBytes: int(env, "MAX_REQUEST_UPLOAD_BYTES", 200 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
    maxUploadFiles: int(env, "MAX_UPLOAD_FILES", 100, 1, 10_000),
    maxArchiveUncompressedBytes: int(env, "MAX_ARCHIVE_UNCOMPRESSED_BYTES", 128 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
    maxArchiveCompressionRatio: int(env, "MAX_ARCHIVE_COMPRESSION_RATIO", 100, 2, 100_000),
    parseWorkers: int(env, "PARSE_WORKERS", 1, 1, 16),
    parseWorkerMemoryMb: int(env, "PARSE_WORKER_MEMORY_MB", 512, 64, 65_536),
    parseTimeoutMs: int(env, "PARSE_TIMEOUT_MS", 30_000, 100, 3_600_000),
    publicUrl: publicUrl(env),
    embedding: embedder,
    chatModel: chatModel(env),
    queryModels: queryModels(env),
    chunkMaxTokens: int(env, "CHUNK_MAX_TOKENS", 256, 16, 8192),
    chunkOverlapTokens: int(env, "CHUNK_OVERLAP_TOKENS", 32, 0, 1024),
    fileUrlSecret: fileUrlSecret(env),
    graphQueryTimeoutMs: int(env, "GRAPH_QUERY_TIMEOUT_MS", 30_000, 1, 3_600_000),
    graphMaxRows: int(env, "GRAPH_MAX_ROWS", 10_000, 1, 10_000_000),
    connectorSecretKey: env.CONNECTOR_SECRET_KEY?.trim() || null,
    connectorApiUrls: connectorApiUrls(env),
    graphWorkers: int(env, "GRAPH_WORKERS", 2, 1, 64),
    extractionWorkers: int(env, "EXTRACTION_WORKERS", 0, 0, 16),
    indexingNice: int(env, "INDEXING_NICE", 10, 0, 19),
    graphWorkerMemoryMb: int(env, "GRAPH_WORKER_MEMORY_MB", 1024, 64, 65_536),
    graphMaxConcurrentPerOrg: int(env, "GRAPH_MAX_CONCURRENT_PER_ORG", 2, 1, 1_000),
    graphMaxListLength: int(env, "GRAPH_MAX_LIST_LENGTH", 10_000_000, 1_000, 100_000_000),
    graphMaxStringLength: int(env, "GRAPH_MAX_STRING_LENGTH", 4 * 1024 * 1024, 1_024, 256 * 1024 * 1024),
    graphMaxRegexWork: int(env, "GRAPH_MAX_REGEX_WORK", 20_000_000, 1_000, 1_000_000_000_000),
    metricsToken: metricsToken(env),
    mcpAllowedHosts: mcpAllowedHosts(env),
    mcpAllowedOrigins: mcpAllowedOrigins(env),
    consoleDir: resolve(env.CONSOLE_DIR?.trim() || DEFAULT_CONSOLE_DIR),
  });
}

/** Configuration with secrets masked, for the CLI's `config` command and the boot log. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    ...config,
    databaseUrl: config.databaseUrl ? config.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@") : null,
    bootstrapApiKeys: config.bootstrapApiKeys.map((k) => `(${k.length} chars)`),
    embedding: "apiKey" in config.embedding ? { ...config.embedding, apiKey: config.embedding.apiKey ? "***" : null } : config.embedding,
    chatModel: config.chatModel ? { ...config.chatModel, apiKey: config.chatModel.apiKey ? "***" : null } : null,
    queryModels: {
      ...config.queryModels,
      rerank:
        config.queryModels.rerank?.provider === "openai"
          ? { ...config.queryModels.rerank, apiKey: config.queryModels.rerank.apiKey ? "***" : null }
          : config.queryModels.rerank,
      chatSteps: [...config.queryModels.chatSteps],
    },
    fileUrlSecret: config.fileUrlSecret ? "***" : null,
    secretKey: config.secretKey ? "***" : null,
    secretKeyPrevious: config.secretKeyPrevious.map(() => "***"),
    webhookSecretKey: config.webhookSecretKey ? "***" : null,
    connectorSecretKey: config.connectorSecretKey ? "***" : null,
    metricsToken: config.metricsToken ? "***" : null,
    backend: config.databaseUrl ? "postgres" : "sqlite",
  };
}
