import { pino, type Logger } from "pino";
import type { Config } from "./config.js";

export type { Logger };

/**
 * The process's one logger, created first and given to everything that logs: the HTTP server
 * (Fastify's request logs are its children), the workers, the query log, background tasks.
 */
export function createLogger(level: Config["logLevel"]): Logger {
  return pino({ level });
}
