import { networkInterfaces } from "node:os";

/** The Host and Origin values /mcp answers (the MCP SDK's DNS-rebinding protection); others get 403. */
export interface McpAllowedOrigins {
  readonly hosts: readonly string[];
  readonly origins: readonly string[];
}

export interface McpOriginSettings {
  /** HOST: the address the service listens on. */
  readonly host: string;
  /** PUBLIC_URL: where clients reach it through a proxy, or null. */
  readonly publicUrl: string | null;
  /** MCP_ALLOWED_HOSTS and MCP_ALLOWED_ORIGINS: what a deployment adds (a proxy's names). */
  readonly extraHosts: readonly string[];
  readonly extraOrigins: readonly string[];
}

const WILDCARDS = new Set(["0.0.0.0", "::", ""]);
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

const hostPart = (address: string): string => (address.includes(":") ? `[${address}]` : address);

/** The addresses of this machine's interfaces, for a service listening on all of them. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((i) => (i === undefined || i.address.startsWith("fe80:") ? [] : [hostPart(i.address)]));
}

/**
 * The Host and Origin values /mcp takes. A DNS-rebinding page reaches the service under the
 * attacker's own name, so that name is what its requests carry as Host and Origin; the service's
 * own names are: loopback at the bound port, the listening address (each interface's when HOST is
 * a wildcard: an address is never rebound), PUBLIC_URL's host, and what MCP_ALLOWED_HOSTS adds (a
 * proxy forwarding its own Host). Origins are those hosts over http and https, PUBLIC_URL's origin
 * and MCP_ALLOWED_ORIGINS. `port` is read once the server listens (PORT=0 binds an ephemeral one).
 */
export function mcpAllowedOrigins(settings: McpOriginSettings, port: () => number): () => McpAllowedOrigins {
  let computed: McpAllowedOrigins | null = null;
  return () => {
    if (computed !== null) return computed;
    const bound = port();
    if (bound === 0) return { hosts: [], origins: [] }; // not listening yet: nothing is allowed
    const addresses = WILDCARDS.has(settings.host) ? interfaceAddresses() : [hostPart(settings.host)];
    const hosts = new Set([...LOOPBACK, ...addresses].map((h) => `${h}:${bound}`));
    if (settings.publicUrl !== null) hosts.add(new URL(settings.publicUrl).host);
    for (const h of settings.extraHosts) hosts.add(h);
    const origins = new Set([...hosts].flatMap((h) => [`http://${h}`, `https://${h}`]));
    if (settings.publicUrl !== null) origins.add(new URL(settings.publicUrl).origin);
    for (const o of settings.extraOrigins) origins.add(o);
    computed = Object.freeze({ hosts: Object.freeze([...hosts]), origins: Object.freeze([...origins]) });
    return computed;
  };
}
