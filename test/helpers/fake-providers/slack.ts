import { decodeOffset, encodeOffset, FakeHttpServer, type FakeRequest, type FakeResponse } from "./fake-http.js";
import type { DemoWorkspace } from "./demo-workspace.js";
import type { SlackChannel, SlackMessage, SlackUser } from "../../../src/features/connectors/slack/client.js";

interface FakeChannel extends SlackChannel {
  members: string[];
}

/**
 * A local Slack Web API: auth.test, conversations.list/info/members/history/replies and
 * users.info, answering like Slack (HTTP 200 `{ok:false,error}` errors, cursor paging in
 * response_metadata, HTTP 429 + Retry-After) from an in-memory workspace a test edits.
 */
export class FakeSlack {
  readonly teamId: string;
  readonly tokens = new Set<string>();
  private readonly revoked = new Set<string>();
  private readonly channels = new Map<string, FakeChannel>();
  private readonly messages = new Map<string, SlackMessage[]>();
  private readonly users = new Map<string, SlackUser>();
  private rateLimited: { count: number; retryAfter: number } | null = null;
  private failures: { method: string | null; skip: number; count: number; status: number } | null = null;
  /** Every Web API call with its form fields, in order (the HTTP log has no bodies). */
  readonly calls: Array<{ method: string; params: URLSearchParams }> = [];
  private seq = 0;

  private constructor(
    readonly http: FakeHttpServer,
    teamId: string,
    /** Seconds since the epoch used for new messages' ts; tests may move it. */
    public clock: () => number,
  ) {
    this.teamId = teamId;
  }

  static async start(options: { teamId?: string; token?: string; clock?: () => number } = {}): Promise<FakeSlack> {
    let fake: FakeSlack | null = null;
    const http = await FakeHttpServer.start((req) => fake!.handle(req));
    fake = new FakeSlack(http, options.teamId ?? "T0FAKE01", options.clock ?? (() => Date.now() / 1000));
    fake.tokens.add(options.token ?? "xoxb-fake-token");
    return fake;
  }

  /** The base URL to configure as CONNECTOR_SLACK_API_URL. */
  get url(): string {
    return `${this.http.origin}/api`;
  }

  addUser(user: { id: string; name: string; email?: string }): void {
    this.users.set(user.id, {
      id: user.id,
      name: user.name.toLowerCase(),
      real_name: user.name,
      profile: { real_name: user.name, ...(user.email ? { email: user.email } : {}) },
    });
  }

  addChannel(channel: { id: string; name: string; isPrivate?: boolean; members?: string[] }): void {
    this.channels.set(channel.id, {
      id: channel.id,
      name: channel.name,
      is_private: channel.isPrivate === true,
      is_member: true,
      members: channel.members ?? [],
    });
    this.messages.set(channel.id, this.messages.get(channel.id) ?? []);
  }

  /** Removes the bot from a channel (or invites it back): Slack then answers its reads `not_in_channel`. */
  setBotMember(channelId: string, member: boolean): void {
    const channel = this.channels.get(channelId);
    if (!channel) throw new Error(`no channel ${channelId}`);
    channel.is_member = member;
  }

  /** Posts a message (a reply with threadTs); returns its ts. */
  post(channel: string, m: { user: string; text: string; threadTs?: string; ts?: string }): string {
    const list = this.messages.get(channel);
    if (!list) throw new Error(`no channel ${channel}`);
    const ts = m.ts ?? `${Math.floor(this.clock())}.${String(++this.seq).padStart(6, "0")}`;
    list.push({ type: "message", user: m.user, text: m.text, ts, ...(m.threadTs ? { thread_ts: m.threadTs } : {}) });
    return ts;
  }

  edit(channel: string, ts: string, text: string): void {
    const m = this.messages.get(channel)?.find((x) => x.ts === ts);
    if (!m) throw new Error(`no message ${ts}`);
    m.text = text;
    m.edited = { user: m.user ?? "", ts: `${Math.floor(this.clock())}.${String(++this.seq).padStart(6, "0")}` };
  }

  remove(channel: string, ts: string): void {
    const list = this.messages.get(channel) ?? [];
    this.messages.set(
      channel,
      list.filter((x) => x.ts !== ts),
    );
  }

  revokeToken(token: string): void {
    this.revoked.add(token);
  }

  /** The next `count` calls answer 429 with Retry-After: `retryAfterSeconds`. */
  rateLimitNext(retryAfterSeconds: number, count = 1): void {
    this.rateLimited = { count, retryAfter: retryAfterSeconds };
  }

  /**
   * Server failures: after letting `skip` matching calls through, the next `count` calls of
   * `method` (any method when absent) answer HTTP `status` (default 500).
   */
  failCalls(options: { count: number; method?: string; skip?: number; status?: number }): void {
    this.failures = { method: options.method ?? null, skip: options.skip ?? 0, count: options.count, status: options.status ?? 500 };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private handle(req: FakeRequest): FakeResponse {
    const method = req.url.pathname.replace(/^\/api\//, "");
    this.calls.push({ method, params: new URLSearchParams(req.body) });
    const f = this.failures;
    if (f && f.count > 0 && (f.method === null || f.method === method)) {
      if (f.skip > 0) f.skip--;
      else {
        f.count--;
        return { status: f.status, body: { ok: false, error: "internal_error" } };
      }
    }
    if (this.rateLimited && this.rateLimited.count > 0) {
      this.rateLimited.count--;
      return { status: 429, body: { ok: false, error: "ratelimited" }, headers: { "retry-after": String(this.rateLimited.retryAfter) } };
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return ok(false, "not_authed");
    if (this.revoked.has(token)) return ok(false, "token_revoked");
    if (!this.tokens.has(token)) return ok(false, "invalid_auth");
    const p = new URLSearchParams(req.body);
    const limit = Math.min(Number(p.get("limit") ?? 100) || 100, 1000);
    const channel = this.channels.get(p.get("channel") ?? "");
    switch (method) {
      case "auth.test":
        return data({ url: `https://fake.slack.test/`, team: "Fake Workspace", team_id: this.teamId, user: "bot", user_id: "UBOT" });
      case "conversations.list":
        return paged(
          [...this.channels.values()].map(({ members, ...c }) => ({ ...c, num_members: members.length })),
          p.get("cursor"),
          limit,
          "channels",
        );
      case "conversations.info":
        return channel ? data({ channel: { ...channel, members: undefined } }) : ok(false, "channel_not_found");
      case "conversations.members":
        return channel ? paged(channel.members, p.get("cursor"), limit, "members") : ok(false, "channel_not_found");
      case "conversations.history": {
        if (!channel) return ok(false, "channel_not_found");
        if (!channel.is_member) return ok(false, "not_in_channel");
        const oldest = Number(p.get("oldest") ?? 0);
        const latest = p.get("latest") ? Number(p.get("latest")) : Infinity;
        const all = this.messages.get(channel.id) ?? [];
        const parents = all
          .filter((m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && Number(m.ts) >= oldest && Number(m.ts) <= latest)
          .sort((a, b) => Number(b.ts) - Number(a.ts));
        const res = paged(parents, p.get("cursor"), limit, "messages");
        const body = res.body as { messages?: SlackMessage[] };
        // Thread fields only for the page's parents, from one pass over the channel (large fakes stay fast).
        if (body.messages) body.messages = this.withThreads(all, body.messages);
        return res;
      }
      case "conversations.replies": {
        if (!channel) return ok(false, "channel_not_found");
        if (!channel.is_member) return ok(false, "not_in_channel");
        const ts = p.get("ts") ?? "";
        const all = this.messages.get(channel.id) ?? [];
        const parent = all.find((m) => m.ts === ts);
        if (!parent) return ok(false, "thread_not_found");
        const replies = all.filter((m) => m.thread_ts === ts && m.ts !== ts).sort((a, b) => Number(a.ts) - Number(b.ts));
        return paged([...this.withThreads(all, [parent]), ...replies], p.get("cursor"), limit, "messages");
      }
      case "users.info": {
        const user = this.users.get(p.get("user") ?? "");
        return user ? data({ user }) : ok(false, "user_not_found");
      }
      default:
        return ok(false, "unknown_method");
    }
  }

  private withThreads(all: readonly SlackMessage[], parents: readonly SlackMessage[]): SlackMessage[] {
    const wanted = new Set(parents.map((m) => m.ts));
    const threads = new Map<string, { count: number; latest: string }>();
    for (const r of all) {
      if (r.thread_ts === undefined || r.thread_ts === r.ts || !wanted.has(r.thread_ts)) continue;
      const t = threads.get(r.thread_ts) ?? { count: 0, latest: r.ts };
      t.count++;
      if (Number(r.ts) > Number(t.latest)) t.latest = r.ts;
      threads.set(r.thread_ts, t);
    }
    return parents.map((m) => {
      const t = threads.get(m.ts);
      return t ? { ...m, thread_ts: m.ts, reply_count: t.count, latest_reply: t.latest } : { ...m };
    });
  }
}

const ok = (success: boolean, error?: string): FakeResponse => ({ status: 200, body: { ok: success, ...(error ? { error } : {}) } });
const data = (body: Record<string, unknown>): FakeResponse => ({ status: 200, body: { ok: true, ...body } });

function paged<T>(items: readonly T[], cursor: string | null, limit: number, key: string): FakeResponse {
  const start = decodeOffset(cursor);
  if (start < 0) return ok(false, "invalid_cursor");
  const page = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return data({ [key]: page, has_more: more, response_metadata: { next_cursor: more ? encodeOffset(start + limit) : "" } });
}

/** A small Slack workspace for the demo: two channels (one private), threads, a few days of talk. */
export async function startDemoWorkspace(): Promise<DemoWorkspace> {
  const token = "xoxb-demo-token";
  const slack = await FakeSlack.start({ token, teamId: "T0DEMO01" });
  const people = [
    { id: "UDEMOADA", name: "Ada Lovelace", email: "ada@example.com" },
    { id: "UDEMOGRC", name: "Grace Hopper", email: "grace@example.com" },
    { id: "UDEMOLIN", name: "Linus Torvalds", email: "linus@example.com" },
  ];
  for (const p of people) slack.addUser(p);
  slack.addChannel({ id: "C0DEMOENG", name: "engineering" });
  slack.addChannel({ id: "C0DEMOLDR", name: "leadership", isPrivate: true, members: ["UDEMOADA", "UDEMOGRC"] });
  const day = 86_400;
  const start = Math.floor(Date.now() / 1000) - 5 * day;
  const threads: Array<[string, string, string[]]> = [
    [
      "C0DEMOENG",
      "The billing service migration to PostgreSQL starts Monday.",
      ["Which tables move first?", "Invoices first, then payments.", "I will freeze schema changes until Friday."],
    ],
    [
      "C0DEMOENG",
      "Deploy of release 4.2 failed on the canary: TLS handshake errors.",
      ["The gateway certificate expired last night.", "Renewed; the canary is green again."],
    ],
    ["C0DEMOENG", "Reminder: on-call handover is Thursday at 10:00.", []],
    ["C0DEMOLDR", "Hiring plan: two platform engineers in Q3.", ["Budget is approved.", "Let's start with the SRE role."]],
  ];
  let objects = 0;
  threads.forEach(([channel, text, replies], t) => {
    const at = start + t * day;
    const root = slack.post(channel, { user: people[t % 3]!.id, text, ts: `${at}.000100` });
    objects++;
    replies.forEach((reply, r) => {
      slack.post(channel, { user: people[(t + r + 1) % 3]!.id, text: reply, threadTs: root, ts: `${at + (r + 1) * 600}.000100` });
      objects++;
    });
  });
  return {
    provider: "slack",
    env: { CONNECTOR_SLACK_API_URL: slack.url },
    credentials: { access_token: token },
    resources: [
      { resource_id: "C0DEMOENG", resource_type: "channel" },
      { resource_id: "C0DEMOLDR", resource_type: "channel" },
    ],
    objects,
    sampleQuery: "why did the canary deploy fail",
    close: () => slack.close(),
  };
}
