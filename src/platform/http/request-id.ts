import { AsyncResource } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { withLogContext } from "../log-context.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An upstream id worth logging: short, and nothing that could forge or break a log line. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const headerOf = (req: IncomingMessage): string | null => {
  const value = req.headers["x-request-id"];
  return typeof value === "string" ? value.trim() : null;
};

/**
 * The request id (meta.request_id, the X-Request-ID header, every log line, what feedback refers
 * to): the caller's X-Request-ID when it is a UUID, as the interface defines request ids, so a
 * proxy or client can choose it; otherwise a new UUID.
 */
export function requestIdOf(req: IncomingMessage): string {
  const sent = headerOf(req);
  return sent !== null && UUID.test(sent) ? sent.toLowerCase() : randomUUID();
}

/** A caller's X-Request-ID that is not a UUID but safe to log: kept on the request's log lines as upstreamRequestId. */
export function upstreamIdOf(req: IncomingMessage): string | undefined {
  const sent = headerOf(req);
  return sent !== null && !UUID.test(sent) && SAFE_ID.test(sent) ? sent : undefined;
}

const scopes = new WeakMap<FastifyRequest, AsyncResource>();

/**
 * Puts the request id on every log line written while serving the request (log-context.ts).
 * Register before any other hook. The context is entered in onRequest and entered again in
 * preValidation: Fastify runs validation, the handlers and later hooks from the request stream's
 * 'end' event once the body is read, which does not keep the context it was entered in.
 */
export function logRequestIds(app: FastifyInstance): void {
  app.addHook("onRequest", (req, _reply, done) => {
    const upstreamRequestId = upstreamIdOf(req.raw);
    withLogContext({ reqId: req.id, ...(upstreamRequestId === undefined ? {} : { upstreamRequestId }) }, () => {
      const scope = new AsyncResource("request-log-context");
      scopes.set(req, scope);
      scope.runInAsyncScope(done);
    });
  });
  app.addHook("preValidation", (req, _reply, done) => {
    const scope = scopes.get(req);
    if (scope) scope.runInAsyncScope(done);
    else done();
  });
}
