import { isIPv4, isIPv6 } from "node:net";

/** Leading 16-bit groups of an IPv6 address that name its network (a /64: what one subscriber is given). */
const IPV6_NETWORK_GROUPS = 4;

/** The eight groups of an IPv6 address, `::` expanded (a trailing dotted IPv4 part counted as two). */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.toLowerCase().split("::");
  const split = (part: string): string[] => (part === "" ? [] : part.split(":").flatMap((g) => (g.includes(".") ? ["v4", "v4"] : [g])));
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  return [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right].map((g) => g.replace(/^0+(?=.)/, ""));
}

/**
 * Who a request comes from, for limits per client (failed authentications): its address (the
 * socket's, or the one TRUSTED_PROXIES forwarded), an IPv4-mapped IPv6 address as its IPv4 form,
 * and an IPv6 address as its /64 network: one host holds a whole /64 and can pick a new address
 * per request, so counting single IPv6 addresses would count nothing.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return `${ipv6Groups(ip).slice(0, IPV6_NETWORK_GROUPS).join(":")}::/64`;
}
