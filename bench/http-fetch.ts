// A `fetch` for the load generator, over node:http with keep-alive connections. The global fetch
// (undici's, spec-complete: WHATWG streams for every body) cost the generator 21-28% of a core at
// 100 requests/s, on the same two cores as the service it measures. The typed client still builds
// each request and reads each answer: only the transport underneath is leaner.
import http from "node:http";

/** Answers without a body, which `Response` refuses to be given one. */
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

function headersOf(res: http.IncomingMessage): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const v of value) out.append(name, v);
    else if (value !== undefined) out.set(name, value);
  }
  return out;
}

/** A fetch for plain-http targets; a network failure rejects with node's error (ECONNRESET, ...). */
export function createHttpFetch(): (request: Request) => Promise<Response> {
  const agent = new http.Agent({ keepAlive: true });
  return async (request) => {
    const url = new URL(request.url);
    const body = request.body === null ? null : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body !== null) headers["content-length"] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: request.method, headers, agent }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("error", reject);
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          const empty = NULL_BODY_STATUS.has(status) || request.method === "HEAD";
          resolve(new Response(empty ? null : Buffer.concat(parts), { status, statusText: res.statusMessage ?? "", headers: headersOf(res) }));
        });
      });
      req.on("error", reject);
      req.end(body ?? undefined);
    });
  };
}
