import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * What kind of network an IP address belongs to, for deciding whether the service may
 * send a webhook there. Pure: no DNS, no I/O.
 */
export type AddressClass = "public" | "loopback" | "private" | "cgnat" | "link_local" | "metadata" | "multicast" | "unspecified" | "reserved" | "invalid";

/** Cloud metadata services: inside link-local, CGNAT and unique-local, but refused even where those are allowed. */
const METADATA = ["169.254.169.254", "100.100.100.200", "fd00:ec2::254"].map((a) => ipaddr.parse(a));

/** ipaddr.js's IPv4 range names (IPv4.range()). AS112 and AMT are anycast services routed on the public internet. */
const IPV4_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: "public",
  as112: "public",
  amt: "public",
  unspecified: "unspecified",
  broadcast: "reserved",
  multicast: "multicast",
  linkLocal: "link_local",
  loopback: "loopback",
  carrierGradeNat: "cgnat",
  private: "private",
  reserved: "reserved",
};

/**
 * ipaddr.js's IPv6 range names (IPv6.range()). "v4" reaches the IPv4 address embedded in it;
 * "unicast" is public only inside 2000::/3, the globally routed space. Names not listed here
 * (special-purpose blocks: benchmarking, ORCHID, discard, ...) are reserved.
 */
const IPV6_CLASSES: Readonly<Record<string, AddressClass | "v4" | "unicast">> = {
  unicast: "unicast",
  as112v6: "public",
  amt: "public",
  unspecified: "unspecified",
  loopback: "loopback",
  linkLocal: "link_local",
  multicast: "multicast",
  uniqueLocal: "private",
  deprecatedSiteLocal: "private",
  ipv4Mapped: "v4",
  "6to4": "v4",
  rfc6052: "v4",
  teredo: "reserved",
  reserved: "reserved",
};

const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");
/** The deprecated IPv4-compatible form (::a.b.c.d), which ipaddr.js leaves as plain unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");
/** NAT64's well-known prefix embeds an IPv4 address; its local-use /48 (also rfc6052) does not say where. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

const v4Of = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

function classifyV4(address: ipaddr.IPv4): AddressClass {
  if (METADATA.some((m) => m.kind() === "ipv4" && address.match(m, 32))) return "metadata";
  return IPV4_CLASSES[address.range()] ?? "reserved";
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  if (METADATA.some((m) => m.kind() === "ipv6" && address.match(m, 128))) return "metadata";
  const [, p1 = 0, p2 = 0, , , , p6 = 0, p7 = 0] = address.parts;
  const range = address.range();
  const cls = IPV6_CLASSES[range] ?? "reserved";
  if (cls === "v4") {
    if (range === "6to4") return classifyV4(v4Of(p1, p2));
    if (range === "rfc6052" && !address.match(NAT64_WELL_KNOWN)) return "reserved";
    return classifyV4(v4Of(p6, p7));
  }
  if (cls !== "unicast") return cls;
  if (address.match(IPV4_COMPATIBLE)) return classifyV4(v4Of(p6, p7));
  return address.match(GLOBAL_UNICAST) ? "public" : "reserved";
}

/** Classifies an IP address given as text (IPv6 with or without brackets, with or without a zone id). */
export function classifyAddress(text: string): AddressClass {
  const trimmed = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  // node:net decides what is an address: ipaddr.js alone would also take legacy forms such as "1.2.3".
  if (isIPv4(trimmed)) return classifyV4(ipaddr.IPv4.parse(trimmed));
  const bare = trimmed.split("%")[0] ?? "";
  return isIPv6(bare) ? classifyV6(ipaddr.IPv6.parse(bare)) : "invalid";
}
