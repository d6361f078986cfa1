// A fetch that hands each request to the service's own Fastify instance (`inject`) instead of a
// socket: /mcp's tools call the public routes with the caller's key and go through the same
// hooks (authentication, tenancy, rate limit, validation, error rendering) as every other client.
import type { FastifyInstance } from "fastify";
import { outsideAnyScope } from "../platform/store/row-scope.js";

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

function headersOf(raw: Record<string, string | string[] | number | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
  }
  return headers;
}

/** `remoteAddress` is the MCP caller's, so what the routes log or limit by address sees the real client. */
export function inProcessFetch(server: FastifyInstance, remoteAddress: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    // Started outside the /mcp request's row scope: the injected request states its own, as one from a socket would.
    const answer = await outsideAnyScope(() =>
      server.inject({
        method: request.method,
        url: `${url.pathname}${url.search}`,
        headers: Object.fromEntries(request.headers),
        remoteAddress,
        ...(payload !== undefined ? { payload } : {}),
      }),
    );
    const body = NO_BODY_STATUSES.has(answer.statusCode) ? null : answer.rawPayload;
    return new Response(body, { status: answer.statusCode, headers: headersOf(answer.headers) });
  };
}
