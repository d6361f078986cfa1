import { pino, type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import type { Config } from "./config.js";
import { currentLogContext } from "./log-context.js";
import { REDACTED_LOG_PATHS, redactUrl } from "./log-redaction.js";

export type { Logger };

/** Request loggers Fastify made (they bind reqId already): the mixin adds nothing to their lines. */
const requestLoggers = new WeakSet<object>();

/** What the `req` of a request's log lines is read from (a Fastify request). */
interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly host?: string;
  readonly ip?: string;
  readonly socket?: { readonly remotePort?: number } | null;
}

/**
 * Fastify's `req` serializer with the URL's credentials redacted (log-redaction.ts): the signed
 * download tokens in /context/files/ paths and secret-named query parameters. This logger's
 * serializers take precedence over Fastify's own, for its request lines and every child's.
 */
const requestSerializer = (req: LoggedRequest): Record<string, unknown> => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});

/**
 * The process's one logger, created first and given to everything that logs: the HTTP server
 * (Fastify's request logs are its children), the workers, the query log, background tasks. Its
 * mixin puts the current request id (or job id and kind) on every line (log-context.ts), so a
 * service logging through this logger while serving a request names the request too. Credentials
 * are redacted from every line: request URLs by the serializer, headers by path. Lines are JSON on
 * stdout, or readable ones (LOG_FORMAT; see `logDestination`).
 */
export function createLogger(config: Pick<Config, "logLevel" | "logFormat">): Logger {
  const options = {
    level: config.logLevel,
    mixin: (_line: object, _level: number, logger: Logger) => (requestLoggers.has(logger) ? {} : { ...currentLogContext() }),
    serializers: { req: requestSerializer },
    redact: { paths: [...REDACTED_LOG_PATHS], censor: "[redacted]" },
  };
  const destination = logDestination(config.logFormat, process.stdout.isTTY === true);
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Where the lines go: null for pino's own JSON lines on stdout; pino-pretty's readable ones for
 * `pretty`, and for `auto` when stdout is a terminal. They are formatted in this thread and written
 * synchronously, as pino's JSON lines are, so that they keep their order with what the process
 * writes on stdout itself (the first-run banner) and nothing is lost on exit.
 */
function logDestination(format: Config["logFormat"], stdoutIsTerminal: boolean): DestinationStream | null {
  if (format === "json" || (format === "auto" && !stdoutIsTerminal)) return null;
  return pretty({ destination: 1, sync: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname" });
}

/** Marks a request's child logger (Fastify's childLoggerFactory), which binds reqId itself: the mixin does not repeat it. */
export function markRequestLogger<T extends object>(child: T): T {
  requestLoggers.add(child);
  return child;
}
