import { resolve } from "node:path";

/**
 * Configuration is parsed once, at boot, from the environment into a frozen object.
 * No other module reads process.env: everything it needs is passed from here.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** postgres://... selects the PostgreSQL backend; null means SQLite in dataDir. */
  readonly databaseUrl: string | null;
  readonly bootstrapApiKeys: readonly string[];
  readonly webhookAllowPrivateUrls: boolean;
  /** Per-organization cap on databases (403 FORBIDDEN beyond it). */
  readonly maxDatabasesPerOrg: number;
  /** Requests per minute per API key; 0 disables the limiter. */
  readonly rateLimitPerMinute: number;
  /** Run job workers in this process (api-only nodes set WORKERS=0). */
  readonly workerConcurrency: number;
  readonly jobLeaseMs: number;
  readonly jobPollMs: number;
  /** Max JSON body size for v2 routes. */
  readonly bodyLimitBytes: number;
  /** How long SIGTERM waits for in-flight requests and jobs before giving up. */
  readonly shutdownTimeoutMs: number;
  /** Graph area: time budget of one Cypher query; past it the query is rolled back (400). */
  readonly graphQueryTimeoutMs: number;
  /** Graph area: rows returned at most per query; further rows are dropped. */
  readonly graphMaxRows: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

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

function databaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError("DATABASE_URL must start with postgres:// or postgresql://");
  }
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  return Object.freeze({
    port: int(env, "PORT", 8080, 0, 65535),
    host: env.HOST?.trim() || "127.0.0.1",
    dataDir: resolve(env.DATA_DIR?.trim() || "./data"),
    logLevel: logLevel(env),
    databaseUrl: databaseUrl(env),
    bootstrapApiKeys: Object.freeze(
      (env.BOOTSTRAP_API_KEY ?? "")
        .split(",")
        .map((k) => k.trim())
        .filter((k) => k.length > 0),
    ),
    webhookAllowPrivateUrls: bool(env, "WEBHOOK_ALLOW_PRIVATE_URLS", false),
    maxDatabasesPerOrg: int(env, "MAX_DATABASES_PER_ORG", 100, 1, 1_000_000),
    rateLimitPerMinute: int(env, "RATE_LIMIT_PER_MINUTE", 1200, 0, 10_000_000),
    workerConcurrency: int(env, "WORKERS", 2, 0, 64),
    jobLeaseMs: int(env, "JOB_LEASE_MS", 60_000, 500, 3_600_000),
    jobPollMs: int(env, "JOB_POLL_MS", 250, 10, 60_000),
    bodyLimitBytes: int(env, "BODY_LIMIT_BYTES", 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    shutdownTimeoutMs: int(env, "SHUTDOWN_TIMEOUT_MS", 25_000, 100, 600_000),
    graphQueryTimeoutMs: int(env, "GRAPH_QUERY_TIMEOUT_MS", 30_000, 1, 3_600_000),
    graphMaxRows: int(env, "GRAPH_MAX_ROWS", 10_000, 1, 10_000_000),
  });
}

/** Configuration with secrets masked, for the CLI's `config` command and the boot log. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    ...config,
    databaseUrl: config.databaseUrl ? config.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@") : null,
    bootstrapApiKeys: config.bootstrapApiKeys.map((k) => `${k.slice(0, 4)}…(${k.length} chars)`),
    backend: config.databaseUrl ? "postgres" : "sqlite",
  };
}
