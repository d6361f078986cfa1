import type { App } from "./app-type.js";

/**
 * The base of links the service hands out (signed file URLs). Configured with PUBLIC_URL; by
 * default http://HOST:<bound port>. Never taken from the request's Host header, which the caller
 * controls: a link built from it could point a browser at any site.
 */
export function publicUrlOf(app: App, configured: string | null, host: string, port: number): () => string {
  if (configured !== null) return () => configured;
  const hostPart = host.includes(":") ? `[${host}]` : host;
  return () => {
    // PORT=0 binds an ephemeral port: only the listening server knows it.
    const bound = app.server.address();
    const actualPort = bound !== null && typeof bound === "object" ? bound.port : port;
    return `http://${hostPart}:${actualPort}`;
  };
}
