import { jsonBody, ProviderError, retryAfterAt } from "../provider-error.js";
import type { ProviderTransport } from "../provider-transport.js";

export interface GithubRepo {
  id: number;
  name: string;
  full_name: string;
  private: boolean;
  visibility?: string;
  archived?: boolean;
  owner: { login: string };
  html_url?: string;
  pushed_at?: string | null;
  updated_at?: string | null;
}

export interface GithubUserRef {
  login: string;
  id?: number;
}

export interface GithubIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: string;
  user: GithubUserRef | null;
  labels: Array<{ name?: string } | string>;
  assignees?: GithubUserRef[] | null;
  milestone?: { title?: string; due_on?: string | null } | null;
  comments?: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  html_url: string;
  pull_request?: { url?: string; html_url?: string; merged_at?: string | null };
}

export interface GithubComment {
  id: number;
  body: string | null;
  user: GithubUserRef | null;
  created_at: string;
  updated_at: string;
  html_url: string;
  issue_url: string;
}

export interface GithubPage<T> {
  items: T[];
  /** Absolute URL of the next page (from the Link header), or null. */
  next: string | null;
}

const linkNext = (header: string | null): string | null => {
  if (!header) return null;
  for (const part of header.split(",")) {
    const m = /<([^>]+)>\s*;\s*rel="next"/.exec(part);
    if (m?.[1]) return m[1];
  }
  return null;
};

/**
 * GitHub REST through the provider transport (which keeps every call on the configured API).
 * Paging follows the Link header (absolute URLs); a next link outside the API is refused here,
 * before anyone holds it as a cursor. Rate limits: a 403 or 429 with `x-ratelimit-remaining: 0`
 * waits for `x-ratelimit-reset` (epoch seconds); a secondary limit carries `retry-after`. 401 is
 * a refused token.
 */
export class GithubClient {
  constructor(
    private readonly transport: ProviderTransport,
    private readonly token: string,
    private readonly signal: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {}

  url(path: string, query: Record<string, string | number> = {}): string {
    return this.transport.base.url(path, query).toString();
  }

  async get<T>(url: string): Promise<{ body: T; next: string | null }> {
    const res = await this.transport.send(url, {
      authorization: `Bearer ${this.token}`,
      headers: {
        Accept: "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "context-store-connector",
      },
      signal: this.signal,
    });
    if (res.status === 401) {
      await res.body?.cancel();
      throw new ProviderError("auth", "GitHub refused the token (401 Bad credentials)");
    }
    if (res.status === 403 || res.status === 429) {
      const text = await res.text();
      const retry = retryAfterAt(res.headers.get("retry-after"), this.now());
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      if (retry !== null) throw new ProviderError("rate_limited", "GitHub secondary rate limit", retry);
      if (res.headers.get("x-ratelimit-remaining") === "0" && Number.isFinite(reset) && reset > 0) {
        throw new ProviderError("rate_limited", "GitHub rate limit exhausted", Math.max(this.now(), reset * 1000));
      }
      if (res.status === 429) throw new ProviderError("rate_limited", "GitHub rate limit", this.now() + 60_000);
      throw new ProviderError("failed", `GitHub answered 403: ${text.slice(0, 200)}`);
    }
    if (res.status === 404) {
      await res.body?.cancel();
      throw new ProviderError("not_found", `GitHub: ${new URL(url).pathname} not found or not visible to the token`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new ProviderError("failed", `GitHub answered HTTP ${res.status} to ${new URL(url).pathname}`);
    }
    const next = linkNext(res.headers.get("link"));
    if (next !== null && this.transport.base.contains(next) === null) {
      await res.body?.cancel();
      throw new ProviderError("failed", `GitHub's next-page link points outside its configured API ${this.transport.base.toString()}: refused`);
    }
    return { body: (await jsonBody("GitHub", res)) as T, next };
  }

  async page<T>(url: string): Promise<GithubPage<T>> {
    const { body, next } = await this.get<T[]>(url);
    if (!Array.isArray(body)) throw new ProviderError("failed", "GitHub answered a list call with something other than a list");
    return { items: body, next };
  }

  async user(): Promise<{ login: string; email?: string | null }> {
    return (await this.get<{ login: string; email?: string | null }>(this.url("/user"))).body;
  }

  async repo(fullName: string): Promise<GithubRepo> {
    return (await this.get<GithubRepo>(this.url(`/repos/${fullName}`))).body;
  }
}
