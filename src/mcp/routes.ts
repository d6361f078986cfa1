// POST /mcp: the MCP tools over streamable HTTP on the service itself, for clients that reach
// the service over the network. The key is the request's bearer token (checked by the server's
// auth hook before this runs: 401 in the envelope, no MCP work); tools call the public routes
// in-process with that same key.
//
// Stateless: every POST gets a fresh MCP server and transport, answered with one JSON body (or, for
// a tool call that asks for progress, one event stream that ends with the result), so any
// instance behind a load balancer can take any request and nothing lives between requests. GET
// (a server-to-client event stream) and DELETE (ending a session) have nothing to serve then, and
// answer 405 as the SDK's stateless servers do.
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { createApiClient } from "../client/api-client.js";
import { AppError } from "../platform/errors/app-error.js";
import type { App } from "../platform/http/app-type.js";
import { presentedKey } from "../platform/http/auth.js";
import type { McpAllowedOrigins } from "./allowed-origins.js";
import { inProcessFetch } from "./in-process-fetch.js";
import type { McpDefaults } from "./tool-definition.js";

/** Headers naming the defaults, for clients that set headers; the query string for those that only take a URL. */
export const MCP_DATABASE_HEADER = "x-context-store-database";
export const MCP_COLLECTION_HEADER = "x-context-store-collection";

const McpQuery = Type.Object({
  database: Type.Optional(Type.String({ minLength: 1 })),
  collection: Type.Optional(Type.String({ minLength: 1 })),
});

function headerValue(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined || one.trim() === "" ? undefined : one.trim();
}

function pick(req: FastifyRequest, header: string, fromQuery: string | undefined, name: string): string | null {
  const fromHeader = headerValue(req, header);
  if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) {
    throw new AppError("INVALID_INPUT", `the ${name} is given twice with different values (header ${header} and query parameter ${name})`);
  }
  return fromHeader ?? fromQuery ?? null;
}

/** The Fastify request as the web Request the SDK's transport reads (the body is passed parsed). */
function webRequestOf(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(req.url, "http://context-store.local"), { method: req.method, headers });
}

async function sendWebResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  void reply.code(response.status);
  response.headers.forEach((value, name) => void reply.header(name, value));
  // An event stream (a tool call's progress, then its result) is relayed as it is written.
  if (response.body !== null && response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
  }
  const text = await response.text();
  return reply.send(text === "" ? null : text);
}

const METHOD_NOT_ALLOWED = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: -32000, message: "Method not allowed: this server is stateless; send POST" },
  id: null,
});

/** `allowed`: the Host and Origin values /mcp answers (allowed-origins.ts); others are refused 403. */
export function registerMcpRoutes(app: App, allowed: () => McpAllowedOrigins): void {
  app.post("/mcp", { schema: { hide: true, querystring: McpQuery } }, async (req, reply) => {
    const key = presentedKey(req.headers.authorization);
    if (key === null) throw new AppError("UNAUTHORIZED", "Missing or malformed Authorization header");
    const defaults: McpDefaults = {
      database: pick(req, MCP_DATABASE_HEADER, req.query.database, "database"),
      collection: pick(req, MCP_COLLECTION_HEADER, req.query.collection, "collection"),
    };
    const api = createApiClient({ baseUrl: "http://context-store.local", apiKey: key, fetch: inProcessFetch(app, req.ip) });
    const { answerMcpRequest } = await import("./http-session.js");
    const onUnexpectedError = (error: unknown, tool: string): void => req.log.error({ err: error, tool }, "MCP tool failed");
    return sendWebResponse(reply, await answerMcpRequest(api, defaults, onUnexpectedError, webRequestOf(req), req.body, allowed()));
  });
  for (const method of ["GET", "DELETE"] as const) {
    app.route({
      method,
      url: "/mcp",
      schema: { hide: true },
      handler: async (_req, reply) => reply.code(405).header("allow", "POST").header("content-type", "application/json").send(METHOD_NOT_ALLOWED),
    });
  }
}
