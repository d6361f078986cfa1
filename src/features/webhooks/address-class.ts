import { isIPv4, isIPv6 } from "node:net";

/**
 * What kind of network an IP address belongs to, for deciding whether the service may
 * send a webhook there. Pure: no DNS, no I/O.
 */
export type AddressClass = "public" | "loopback" | "private" | "cgnat" | "link_local" | "metadata" | "multicast" | "unspecified" | "reserved" | "invalid";

type Range = readonly [base: number, prefix: number, cls: AddressClass];

const v4 = (a: number, b: number, c: number, d: number): number => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

// Most specific first: the cloud metadata addresses sit inside link-local and CGNAT.
const IPV4_RANGES: readonly Range[] = [
  [v4(169, 254, 169, 254), 32, "metadata"],
  [v4(100, 100, 100, 200), 32, "metadata"],
  [v4(0, 0, 0, 0), 8, "unspecified"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(100, 64, 0, 0), 10, "cgnat"],
  [v4(169, 254, 0, 0), 16, "link_local"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved"],
  [v4(192, 0, 0, 0), 24, "reserved"],
  [v4(192, 0, 2, 0), 24, "reserved"],
  [v4(192, 88, 99, 0), 24, "reserved"],
  [v4(198, 18, 0, 0), 15, "reserved"],
  [v4(198, 51, 100, 0), 24, "reserved"],
  [v4(203, 0, 113, 0), 24, "reserved"],
];

export function parseIpv4(text: string): number | null {
  if (!isIPv4(text)) return null;
  const [a = 0, b = 0, c = 0, d = 0] = text.split(".").map(Number);
  return v4(a, b, c, d);
}

export function classifyIpv4(value: number): AddressClass {
  for (const [base, prefix, cls] of IPV4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === base) return cls;
  }
  return "public";
}

/** Eight 16-bit groups, or null. Accepts `::` compression, a trailing dotted quad and a zone id. */
export function parseIpv6(text: string): number[] | null {
  const bare = text.split("%")[0] ?? "";
  if (!isIPv6(bare)) return null;
  let s = bare;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const quad = parseIpv4(tail);
    if (quad === null) return null;
    s = `${s.slice(0, lastColon + 1)}${(quad >>> 16).toString(16)}:${(quad & 0xffff).toString(16)}`;
  }
  const halves = s.split("::");
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length > 1 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - rest.length;
  const groups = [...head, ...Array<string>(halves.length > 1 ? missing : 0).fill("0"), ...rest].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const embeddedIpv4 = (hi: number, lo: number): number => ((hi << 16) | lo) >>> 0;

export function classifyIpv6(g: readonly number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 0) return "unspecified";
  if (upperZero && g5 === 0 && g6 === 0 && g7 === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d).
  if (upperZero && (g5 === 0xffff || g5 === 0)) return classifyIpv4(embeddedIpv4(g6, g7));
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIpv4(embeddedIpv4(g6, g7));
  if (g0 === 0x2002) return classifyIpv4(embeddedIpv4(g1, g2));
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) return "metadata";
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return "link_local";
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // deprecated site-local
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  if (g0 === 0x2001 && (g1 === 0 || g1 === 0x0db8)) return "reserved"; // Teredo, documentation
  // Only 2000::/3 is globally routed unicast.
  return (g0 & 0xe000) === 0x2000 ? "public" : "reserved";
}

/** Classifies an IP address given as text (IPv6 with or without brackets). */
export function classifyAddress(text: string): AddressClass {
  const trimmed = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const ipv4 = parseIpv4(trimmed);
  if (ipv4 !== null) return classifyIpv4(ipv4);
  const ipv6 = parseIpv6(trimmed);
  return ipv6 === null ? "invalid" : classifyIpv6(ipv6);
}
