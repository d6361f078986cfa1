import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What every log line written on behalf of one unit of work carries, whichever logger writes it
 * (the request's child logger, or the process logger a service was given): the request id while
 * serving a request, the job id and kind while running a job. The logger's mixin reads it
 * (logger.ts); the HTTP server and the job worker enter it.
 */
export type LogContext = { readonly reqId: string; readonly upstreamRequestId?: string } | { readonly jobId: string; readonly jobKind: string };

const storage = new AsyncLocalStorage<LogContext>();

/** Runs fn (and everything it starts) with `context` on its log lines. */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The context of the work running now, if any. */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}
