import { pino, type Logger } from "pino";
import type { Config } from "./config.js";
import { currentLogContext } from "./log-context.js";

export type { Logger };

/** Request loggers Fastify made (they bind reqId already): the mixin adds nothing to their lines. */
const requestLoggers = new WeakSet<object>();

/**
 * The process's one logger, created first and given to everything that logs: the HTTP server
 * (Fastify's request logs are its children), the workers, the query log, background tasks. Its
 * mixin puts the current request id (or job id and kind) on every line (log-context.ts), so a
 * service logging through this logger while serving a request names the request too.
 */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino({
    level,
    mixin: (_line, _level, logger) => (requestLoggers.has(logger) ? {} : { ...currentLogContext() }),
  });
}

/** Marks a request's child logger (Fastify's childLoggerFactory), which binds reqId itself: the mixin does not repeat it. */
export function markRequestLogger<T extends object>(child: T): T {
  requestLoggers.add(child);
  return child;
}
