import type { IncomingMessage, ServerOptions } from "node:http";
import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { HttpTimeouts } from "../config.js";

// A connection that holds the server without sending is closed, so a few hundred idle or
// trickling sockets cannot tie up memory and file descriptors. Each deadline is a budget, not a
// delay: a client that keeps sending never meets them.

/** Node checks its header and request deadlines on an interval (30 s by default): at most this late. */
const MAX_CHECK_INTERVAL_MS = 1_000;

/** Node's http.Server options for the header and whole-request deadlines (Fastify sets requestTimeout itself). */
export function nodeServerOptions(t: HttpTimeouts): ServerOptions {
  const deadlines = [t.headersMs, t.requestMs].filter((ms) => ms > 0);
  const interval = Math.max(10, Math.min(MAX_CHECK_INTERVAL_MS, ...deadlines.map((ms) => Math.floor(ms / 4))));
  return { headersTimeout: t.headersMs, connectionsCheckingInterval: interval };
}

/** A request that says a body follows (Content-Length above 0, or chunked). */
function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

const TIMED_OUT = '{"error":"Request Timeout","message":"The request body stopped arriving","statusCode":408}';
const TIMED_OUT_RESPONSE = `HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${TIMED_OUT.length}\r\n\r\n${TIMED_OUT}`;

/**
 * Closes a connection whose request body stops arriving for `idleMs`: an idle timer on the socket
 * while the body is received, so an upload of any size on a slow link goes on as long as bytes
 * keep coming (the whole-request deadline, if any, still applies). Node refreshes the timer on
 * every read and emits `timeout` on the request only while its body is incomplete; once the body
 * is in, or the answer is sent, the timer is the server's again (a body received but left unread
 * while a handler works is not idle: its answer is what is awaited).
 */
export function closeIdleRequestBodies(app: FastifyInstance, idleMs: number): void {
  if (idleMs <= 0) return;
  app.addHook("onRequest", (req, reply, done) => {
    const raw = req.raw;
    const res = reply.raw;
    const socket = raw.socket;
    // Injected requests (the MCP tools' calls to the routes) have no socket to watch.
    if (raw.complete || !declaresBody(raw) || !(socket instanceof Socket)) {
      done();
      return;
    }
    const serverTimeout = app.server.timeout;
    const onIdle = (): void => {
      req.log.info({ idleMs }, "the request body stopped arriving; connection closed");
      if (!res.headersSent && socket.writable) socket.write(TIMED_OUT_RESPONSE);
      socket.destroy();
    };
    const disarm = (): void => {
      raw.off("timeout", onIdle);
      raw.off("end", release);
      res.off("timeout", release);
      res.off("finish", disarm);
    };
    // Body read (or received and waiting for its handler): back to the server's own socket timeout.
    // After the answer Node has set the keep-alive timer, which is not ours to change.
    const release = (): void => {
      disarm();
      if (!res.writableFinished) socket.setTimeout(serverTimeout);
    };
    raw.once("timeout", onIdle);
    raw.once("end", release);
    // Emitted instead when the body is complete: listening keeps Node from destroying the socket.
    res.once("timeout", release);
    res.once("finish", disarm);
    socket.setTimeout(idleMs);
    done();
  });
}
