import { createHash } from "node:crypto";
import type { Credentials } from "../provider.js";
import { jsonBody, ProviderError, retryAfterAt } from "../provider-error.js";
import type { ProviderTransport } from "../provider-transport.js";

export interface GmailHeader {
  name: string;
  value: string;
}

export interface GmailPart {
  partId?: string;
  mimeType?: string;
  filename?: string;
  headers?: GmailHeader[];
  body?: { size?: number; data?: string; attachmentId?: string };
  parts?: GmailPart[];
}

export interface GmailMessage {
  id: string;
  threadId: string;
  labelIds?: string[];
  snippet?: string;
  historyId?: string;
  internalDate?: string;
  payload?: GmailPart;
}

export interface GmailThread {
  id: string;
  historyId?: string;
  messages?: GmailMessage[];
}

export interface GmailLabel {
  id: string;
  name: string;
  type?: "system" | "user";
  messagesTotal?: number;
  threadsTotal?: number;
}

interface GoogleError {
  error?: { code?: number; message?: string; status?: string; errors?: Array<{ reason?: string }> } | string;
  error_description?: string;
}

// Google answers 429 usually without Retry-After; a minute is its per-user quota window.
const DEFAULT_RETRY_MS = 60_000;
// An access token is refreshed this long before Google says it expires.
const EXPIRY_MARGIN_MS = 60_000;
const RATE_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded"]);

/**
 * Access tokens from a refresh token at Google's token endpoint (form POST,
 * grant_type=refresh_token), kept in memory until shortly before they expire. A revoked or
 * expired grant (400 invalid_grant) and a deleted client (401 invalid_client) are auth failures.
 */
export class GoogleTokens {
  private readonly cache = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    /** Kept to the token endpoint (CONNECTOR_GOOGLE_TOKEN_URL): the refresh grant travels in its body. */
    private readonly transport: ProviderTransport,
    private readonly now: () => number = Date.now,
  ) {}

  private key(c: Credentials): string {
    return createHash("sha256")
      .update(`${c.client_id ?? ""}\0${c.refresh_token ?? ""}`)
      .digest("base64url");
  }

  forget(c: Credentials): void {
    this.cache.delete(this.key(c));
  }

  async accessToken(c: Credentials, signal: AbortSignal): Promise<string> {
    const key = this.key(c);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.token;
    const form = new URLSearchParams({
      grant_type: "refresh_token",
      client_id: c.client_id ?? "",
      client_secret: c.client_secret ?? "",
      refresh_token: c.refresh_token ?? "",
    });
    const res = await this.transport.send(this.transport.base.toString(), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
      signal,
    });
    if (res.status === 429) {
      await res.body?.cancel();
      throw new ProviderError(
        "rate_limited",
        "Google's token endpoint rate-limited the refresh",
        retryAfterAt(res.headers.get("retry-after"), this.now()) ?? this.now() + DEFAULT_RETRY_MS,
      );
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw new ProviderError("failed", `Google's token endpoint answered HTTP ${res.status}`);
    }
    const body = (await jsonBody("Google", res)) as GoogleError & { access_token?: string; expires_in?: number };
    if (res.ok && typeof body.access_token === "string") {
      const ttl = (typeof body.expires_in === "number" ? body.expires_in : 3600) * 1000;
      this.cache.set(key, { token: body.access_token, expiresAt: this.now() + Math.max(0, ttl - EXPIRY_MARGIN_MS) });
      return body.access_token;
    }
    const code = typeof body.error === "string" ? body.error : `HTTP ${res.status}`;
    if (res.status === 400 || res.status === 401) {
      throw new ProviderError("auth", `Google refused the refresh token (${code}${body.error_description ? `: ${body.error_description}` : ""})`);
    }
    throw new ProviderError("failed", `Google's token endpoint answered ${code}`);
  }
}

/**
 * The Gmail API through the provider transport (`{base}/gmail/v1/users/me/...`, Bearer access token). A 401 drops
 * the cached access token and retries once with a fresh one; a second 401, or a 403 for missing
 * scopes, is an auth failure. 429 and 403 rateLimitExceeded / userRateLimitExceeded are rate
 * limits; 404 is not_found (a deleted label or thread).
 */
export class GmailClient {
  constructor(
    private readonly transport: ProviderTransport,
    private readonly tokens: GoogleTokens,
    private readonly credentials: Credentials,
    private readonly signal: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {}

  async get<T>(path: string, query: Record<string, string | number | boolean | undefined> = {}): Promise<T> {
    const url = this.transport.base.url(`/gmail/v1/users/me${path}`, query);
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.accessToken(this.credentials, this.signal);
      const res = await this.transport.send(url, { authorization: `Bearer ${token}`, signal: this.signal });
      if (res.ok) return (await jsonBody("Gmail", res)) as T;
      const text = await res.text();
      let parsed: GoogleError = {};
      try {
        parsed = JSON.parse(text) as GoogleError;
      } catch {
        // not JSON: classified by status alone
      }
      const err = typeof parsed.error === "object" ? parsed.error : undefined;
      const reason = err?.errors?.[0]?.reason ?? "";
      const message = err?.message ?? text.slice(0, 200);
      if (res.status === 401) {
        this.tokens.forget(this.credentials);
        if (attempt === 0) continue;
        throw new ProviderError("auth", `Gmail refused the access token (${message})`);
      }
      if (res.status === 429 || (res.status === 403 && RATE_REASONS.has(reason))) {
        throw new ProviderError(
          "rate_limited",
          `Gmail rate limit (${reason || res.status})`,
          retryAfterAt(res.headers.get("retry-after"), this.now()) ?? this.now() + DEFAULT_RETRY_MS,
        );
      }
      if (res.status === 403 && (reason === "insufficientPermissions" || err?.status === "PERMISSION_DENIED")) {
        throw new ProviderError("auth", `Gmail: the grant lacks the gmail.readonly scope (${message})`);
      }
      if (res.status === 404) throw new ProviderError("not_found", `Gmail: ${url.pathname} not found`);
      throw new ProviderError("failed", `Gmail answered HTTP ${res.status} to ${url.pathname}: ${message}`);
    }
  }

  profile(): Promise<{ emailAddress: string; historyId?: string; messagesTotal?: number; threadsTotal?: number }> {
    return this.get("/profile");
  }

  async labels(): Promise<GmailLabel[]> {
    return (await this.get<{ labels?: GmailLabel[] }>("/labels")).labels ?? [];
  }

  label(id: string): Promise<GmailLabel> {
    return this.get(`/labels/${encodeURIComponent(id)}`);
  }

  threads(q: { labelId: string; query?: string; pageToken: string | null; max: number }): Promise<{ threads?: Array<{ id: string }>; nextPageToken?: string }> {
    return this.get("/threads", { labelIds: q.labelId, q: q.query, maxResults: q.max, pageToken: q.pageToken ?? undefined, includeSpamTrash: false });
  }

  thread(id: string, format: "full" | "minimal"): Promise<GmailThread> {
    return this.get(`/threads/${encodeURIComponent(id)}`, { format });
  }
}
