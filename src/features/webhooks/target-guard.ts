import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { classifyAddress, type AddressClass } from "./address-class.js";

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** DNS resolution, injectable so a test can stand in for a third-party DNS answer. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

const systemResolver: Resolver = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A target that passed every check: connect to `address`, never to a fresh lookup of the name. */
export interface CheckedTarget {
  readonly url: URL;
  /** The host without IPv6 brackets; used for the Host header and TLS server name. */
  readonly hostname: string;
  readonly address: string;
  readonly family: 4 | 6;
}

export type TargetCheck = { ok: true; target: CheckedTarget } | { ok: false; code: "TARGET_REFUSED" | "DNS_FAILED"; reason: string };

// Names that resolve to the host itself or to cloud metadata services, whatever DNS says.
const LOOPBACK_NAME = /(^|\.)localhost\.?$/i;
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "metadata.azure.internal"]);

const PRIVATE_CLASSES: ReadonlySet<AddressClass> = new Set(["loopback", "private", "cgnat"]);

const refused = (reason: string): TargetCheck => ({ ok: false, code: "TARGET_REFUSED", reason });

/**
 * Decides whether the service may send a webhook to a URL: public HTTPS only, checked
 * after DNS resolution (every address the name resolves to must pass). With
 * `allowPrivate` (local development and tests), loopback and private addresses are
 * allowed too, over plain http as well; link-local, metadata, multicast, unspecified and
 * reserved addresses never are.
 */
export class TargetGuard {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  async check(raw: string, base?: URL): Promise<TargetCheck> {
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      // The refusal tells the caller what is wrong; the URL parser's message says no more.
      return refused("not a valid absolute URL");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return refused(`scheme '${url.protocol}' is not allowed; use https`);
    if (url.protocol === "http:" && !this.allowPrivate) return refused("plain http is not allowed; use https");
    if (url.username || url.password) return refused("credentials in the URL are not allowed");
    const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
    const lowered = hostname.toLowerCase().replace(/\.$/, "");
    if (METADATA_NAMES.has(lowered)) return refused(`'${hostname}' is a cloud metadata service`);
    if (LOOPBACK_NAME.test(hostname) && !this.allowPrivate) return refused(`'${hostname}' is the local host`);

    let addresses: readonly ResolvedAddress[];
    if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
    else {
      try {
        addresses = await this.resolve(hostname);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        return { ok: false, code: "DNS_FAILED", reason: `could not resolve '${hostname}'${typeof code === "string" ? ` (${code})` : ""}` };
      }
    }
    const first = addresses[0];
    if (!first) return { ok: false, code: "DNS_FAILED", reason: `'${hostname}' has no address` };
    for (const { address } of addresses) {
      const denial = this.denial(classifyAddress(address), url.protocol);
      if (denial) return refused(`'${hostname}' resolves to ${address}, ${denial}`);
    }
    return { ok: true, target: { url, hostname, address: first.address, family: first.family === 6 ? 6 : 4 } };
  }

  private denial(cls: AddressClass, protocol: string): string | null {
    if (cls === "public") return protocol === "https:" ? null : "a public address reached over plain http";
    if (PRIVATE_CLASSES.has(cls)) return this.allowPrivate ? null : `a ${cls === "cgnat" ? "shared (CGNAT)" : cls} address`;
    return `a ${cls.replace("_", "-")} address`;
  }
}
