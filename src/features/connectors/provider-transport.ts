import { ProviderError } from "./provider-error.js";

/**
 * Where a provider's API lives (CONNECTOR_<PROVIDER>_API_URL): an origin (scheme, host, port) and
 * a path prefix. A URL is inside it when it parses to that origin, carries no user info and its
 * normalised path is the prefix or below it. Never compared as strings: both
 * `https://api.github.com.evil.example/x` and `https://api.github.com:8443/x` start with
 * `https://api.github.com`.
 */
export class ApiBase {
  readonly origin: string;
  /** The path prefix without a trailing slash ("" for the origin's root). */
  readonly path: string;

  constructor(base: string) {
    const url = new URL(base);
    this.origin = url.origin;
    this.path = url.pathname.replace(/\/+$/, "");
  }

  /** The URL, parsed, when it lies inside this base; null otherwise (or when it does not parse). */
  contains(url: string | URL): URL | null {
    if (!URL.canParse(String(url))) return null;
    const parsed = new URL(url);
    if (parsed.origin !== this.origin || parsed.username !== "" || parsed.password !== "") return null;
    if (this.path !== "" && parsed.pathname !== this.path && !parsed.pathname.startsWith(`${this.path}/`)) return null;
    return parsed;
  }

  /** `path` (starting with /) under the base, with the query set. */
  url(path: string, query: Record<string, string | number | boolean | undefined> = {}): URL {
    const url = new URL(`${this.origin}${this.path}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  toString(): string {
    return `${this.origin}${this.path}`;
  }
}

export interface ProviderRequest {
  readonly method?: "GET" | "POST";
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The Authorization header's value (a token): attached here and nowhere else. */
  readonly authorization?: string;
  readonly signal: AbortSignal;
}

// GitHub answers a renamed repository with a 301 on its own origin; more hops than this is a loop.
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The only way a connector reaches its provider: every request, its credentials included (tokens,
 * the Google refresh grant in a body), goes to the provider's configured base and nowhere else,
 * whatever URL a caller's cursor, a provider's Link header or a redirect names. Redirects are
 * followed here, one hop at a time, only while they stay inside the base. Network failures and
 * aborts become ProviderError `failed`. (eslint forbids `fetch` elsewhere in the connectors.)
 */
export class ProviderTransport {
  constructor(
    /** The provider's name in error messages ("GitHub", "Google"). */
    readonly provider: string,
    readonly base: ApiBase,
  ) {}

  async send(url: string | URL, request: ProviderRequest): Promise<Response> {
    let target = this.inside(url, "was asked to call");
    let method = request.method ?? "GET";
    let body = request.body;
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { ...(request.headers ?? {}) };
      if (body === undefined) delete headers["Content-Type"];
      if (request.authorization !== undefined) headers.Authorization = request.authorization;
      const res = await this.fetchOnce(target, { method, headers, ...(body !== undefined ? { body } : {}), redirect: "manual", signal: request.signal });
      const location = res.headers.get("location");
      if (!REDIRECTS.has(res.status) || location === null) return res;
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new ProviderError("failed", `${this.provider} redirected more than ${MAX_REDIRECTS} times (${target.pathname})`);
      target = this.inside(resolveLocation(location, target), `redirected ${target.pathname} to`);
      // As fetch does: a 303, and a 301/302 of a POST, continue as a GET without the body.
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
    }
  }

  private inside(url: string | URL, what: string): URL {
    const parsed = this.base.contains(url);
    if (parsed !== null) return parsed;
    throw new ProviderError(
      "failed",
      `${this.provider} ${what} ${originOf(url)}, outside its configured API ${this.base.toString()}: refused, the request carries the credentials`,
    );
  }

  private async fetchOnce(url: URL, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ProviderError("failed", `${this.provider} could not be reached (${url.host}): ${reason}`);
    }
  }
}

/** A Location header against the URL that answered it; left as is when it does not parse (then refused). */
function resolveLocation(location: string, from: URL): URL | string {
  return URL.canParse(location, from.href) ? new URL(location, from) : location;
}

/** What a refusal names of the URL: its origin, never its path or query (they may carry ids or tokens). */
function originOf(url: string | URL): string {
  return URL.canParse(String(url)) ? new URL(url).origin : "a URL that does not parse";
}
