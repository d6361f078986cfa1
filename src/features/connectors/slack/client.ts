import { jsonBody, ProviderError, retryAfterAt } from "../provider-error.js";
import type { ProviderTransport } from "../provider-transport.js";

export interface SlackChannel {
  id: string;
  name: string;
  is_private?: boolean;
  is_archived?: boolean;
  is_member?: boolean;
  num_members?: number;
  topic?: { value?: string };
  purpose?: { value?: string };
}

export interface SlackMessage {
  type?: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  reply_count?: number;
  latest_reply?: string;
  edited?: { user?: string; ts?: string };
  files?: unknown[];
}

export interface SlackUser {
  id: string;
  name?: string;
  real_name?: string;
  deleted?: boolean;
  is_bot?: boolean;
  profile?: { real_name?: string; display_name?: string; email?: string };
}

interface Paged {
  response_metadata?: { next_cursor?: string };
}

const AUTH_ERRORS = new Set(["invalid_auth", "not_authed", "token_revoked", "token_expired", "account_inactive", "no_permission", "missing_scope"]);
const NOT_FOUND_ERRORS = new Set(["channel_not_found", "not_in_channel", "user_not_found", "thread_not_found"]);
// Slack's 429 answers carry Retry-After; without it, a minute is the documented Tier window.
const DEFAULT_RETRY_MS = 60_000;

export const nextCursorOf = (page: Paged): string | null => {
  const next = page.response_metadata?.next_cursor;
  return next !== undefined && next !== "" ? next : null;
};

/**
 * Slack Web API through the provider transport: every call is `POST {base}/{method}` with form fields and a Bearer
 * token. Errors come back as HTTP 200 `{ok:false, error}`, rate limits as HTTP 429 with
 * Retry-After; both are classified into ProviderError here.
 */
export class SlackClient {
  constructor(
    private readonly transport: ProviderTransport,
    private readonly token: string,
    private readonly signal: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {}

  async call<T>(method: string, params: Record<string, string | number | boolean | undefined>): Promise<T> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, String(v));
    const res = await this.transport.send(this.transport.base.url(`/${method}`), {
      method: "POST",
      authorization: `Bearer ${this.token}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
      signal: this.signal,
    });
    if (res.status === 429) {
      await res.body?.cancel();
      const at = retryAfterAt(res.headers.get("retry-after"), this.now()) ?? this.now() + DEFAULT_RETRY_MS;
      throw new ProviderError("rate_limited", `Slack rate-limited ${method}`, at);
    }
    if (res.status >= 500) throw new ProviderError("failed", `Slack answered HTTP ${res.status} to ${method}`);
    const body = (await jsonBody("Slack", res)) as { ok?: boolean; error?: string } & T;
    if (body.ok === true) return body;
    const error = body.error ?? `HTTP ${res.status}`;
    if (AUTH_ERRORS.has(error)) throw new ProviderError("auth", `Slack refused the token (${error})`);
    if (NOT_FOUND_ERRORS.has(error)) throw new ProviderError("not_found", `Slack: ${error} in ${method}`);
    if (error === "invalid_cursor") throw new ProviderError("bad_cursor", `Slack: ${error} in ${method}`);
    if (error === "ratelimited") throw new ProviderError("rate_limited", `Slack rate-limited ${method}`, this.now() + DEFAULT_RETRY_MS);
    throw new ProviderError("failed", `Slack ${method} failed: ${error}`);
  }

  authTest(): Promise<{ team_id: string; team?: string; user_id?: string; url?: string }> {
    return this.call("auth.test", {});
  }

  conversationsList(cursor: string | null, limit: number): Promise<{ channels: SlackChannel[] } & Paged> {
    return this.call("conversations.list", { types: "public_channel,private_channel", exclude_archived: true, limit, cursor: cursor ?? undefined });
  }

  conversationsInfo(channel: string): Promise<{ channel: SlackChannel }> {
    return this.call("conversations.info", { channel });
  }

  conversationsMembers(channel: string, cursor: string | null): Promise<{ members: string[] } & Paged> {
    return this.call("conversations.members", { channel, limit: 1000, cursor: cursor ?? undefined });
  }

  /** Parent messages, newest first, within (oldest, latest]. */
  conversationsHistory(q: {
    channel: string;
    oldest?: string;
    latest?: string;
    cursor: string | null;
    limit: number;
  }): Promise<{ messages: SlackMessage[]; has_more?: boolean } & Paged> {
    return this.call("conversations.history", {
      channel: q.channel,
      oldest: q.oldest,
      latest: q.latest,
      inclusive: true,
      limit: q.limit,
      cursor: q.cursor ?? undefined,
    });
  }

  /** The thread: parent first, then the replies. */
  conversationsReplies(channel: string, ts: string, cursor: string | null): Promise<{ messages: SlackMessage[]; has_more?: boolean } & Paged> {
    return this.call("conversations.replies", { channel, ts, limit: 200, cursor: cursor ?? undefined });
  }

  usersInfo(user: string): Promise<{ user: SlackUser }> {
    return this.call("users.info", { user });
  }

  /** Every reply of a thread (the parent excluded), all pages. */
  async threadReplies(channel: string, ts: string): Promise<SlackMessage[]> {
    const out: SlackMessage[] = [];
    let cursor: string | null = null;
    do {
      const page = await this.conversationsReplies(channel, ts, cursor);
      out.push(...page.messages.filter((m) => m.ts !== ts));
      cursor = nextCursorOf(page);
    } while (cursor !== null);
    return out;
  }
}
