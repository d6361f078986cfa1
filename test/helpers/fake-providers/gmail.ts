import { randomBytes } from "node:crypto";
import { FakeHttpServer, type FakeRequest, type FakeResponse } from "./fake-http.js";
import type { GmailLabel, GmailMessage } from "../../../src/features/connectors/gmail/client.js";
import type { DemoWorkspace } from "./demo-workspace.js";

interface FakeMail {
  id: string;
  threadId: string;
  labelIds: string[];
  from: string;
  to: string;
  cc: string;
  subject: string;
  text: string;
  html: boolean;
  messageId: string;
  inReplyTo: string | null;
  internalDate: number;
  historyId: number;
}

const SYSTEM_LABELS = ["INBOX", "SENT", "TRASH", "SPAM", "DRAFT", "UNREAD", "IMPORTANT"];
const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64url");
const hex = (): string => randomBytes(8).toString("hex");
const googleError = (code: number, status: string, reason: string, message: string, headers?: Record<string, string>): FakeResponse => ({
  status: code,
  body: { error: { code, message, errors: [{ message, domain: "global", reason }], status } },
  ...(headers ? { headers } : {}),
});

/**
 * A local Google: the OAuth token endpoint (`POST /token`, grant_type=refresh_token ->
 * `{access_token, expires_in}`, 400 invalid_grant for a revoked grant) and the Gmail API under
 * `/gmail/v1/users/me` (profile, labels, threads.list with labelIds, `q=after:<epoch>` and
 * pageToken paging, threads.get format=full|minimal with MIME payloads in base64url). A stale
 * access token answers 401 UNAUTHENTICATED, a rate limit 429 rateLimitExceeded or 403
 * userRateLimitExceeded, like Google.
 */
export class FakeGmail {
  readonly clients = new Map<string, string>();
  readonly refreshTokens = new Set<string>();
  /** Refresh exchanges answered so far. */
  refreshes = 0;
  private readonly revoked = new Set<string>();
  private readonly accessTokens = new Map<string, number>();
  private readonly labels = new Map<string, GmailLabel>();
  private readonly mails: FakeMail[] = [];
  private rateLimited: { count: number; status: 429 | 403 } | null = null;
  private history = 1000;
  private seq = 0;

  private constructor(
    readonly http: FakeHttpServer,
    readonly email: string,
    /** Epoch ms of new mails' internalDate; tests may move it. */
    public clock: () => number,
  ) {
    for (const id of SYSTEM_LABELS) this.labels.set(id, { id, name: id, type: "system" });
  }

  static async start(
    options: { email?: string; clientId?: string; clientSecret?: string; refreshToken?: string; clock?: () => number } = {},
  ): Promise<FakeGmail> {
    let fake: FakeGmail | null = null;
    const http = await FakeHttpServer.start((req) => fake!.handle(req));
    fake = new FakeGmail(http, options.email ?? "ada@example.com", options.clock ?? Date.now);
    fake.clients.set(options.clientId ?? "fake-client.apps.googleusercontent.com", options.clientSecret ?? "fake-secret");
    fake.refreshTokens.add(options.refreshToken ?? "1//fake-refresh-token");
    return fake;
  }

  /** The base URL to configure as CONNECTOR_GMAIL_API_URL. */
  get url(): string {
    return this.http.origin;
  }

  /** The URL to configure as CONNECTOR_GOOGLE_TOKEN_URL. */
  get tokenUrl(): string {
    return `${this.http.origin}/token`;
  }

  addLabel(name: string): string {
    const id = `Label_${this.labels.size + 1}`;
    this.labels.set(id, { id, name, type: "user" });
    return id;
  }

  /** Delivers a mail (a reply when `replyTo` names a mail of the thread); returns its id. */
  send(m: { from: string; to: string; cc?: string; subject: string; text: string; labels?: string[]; replyTo?: string; html?: boolean }): string {
    const answered = m.replyTo ? this.mail(m.replyTo) : undefined;
    const id = hex();
    this.mails.push({
      id,
      threadId: answered?.threadId ?? id,
      labelIds: m.labels ?? ["INBOX", "UNREAD"],
      from: m.from,
      to: m.to,
      cc: m.cc ?? "",
      subject: m.subject,
      text: m.text,
      html: m.html === true,
      messageId: `<${id}.${++this.seq}@mail.fake>`,
      inReplyTo: answered?.messageId ?? null,
      internalDate: this.clock(),
      historyId: ++this.history,
    });
    return id;
  }

  trash(id: string): void {
    const mail = this.mail(id);
    mail.labelIds = [...mail.labelIds.filter((l) => l !== "INBOX"), "TRASH"];
    mail.historyId = ++this.history;
  }

  /** Deletes a mail for good (users.messages.delete). */
  deleteMail(id: string): void {
    const i = this.mails.findIndex((m) => m.id === id);
    if (i >= 0) this.mails.splice(i, 1);
  }

  /** Revokes a refresh token: its next exchange answers 400 invalid_grant. */
  revokeRefreshToken(token: string): void {
    this.revoked.add(token);
  }

  /** Every access token issued so far expires now (the next Gmail call answers 401). */
  expireAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** The next `count` Gmail calls answer 429 rateLimitExceeded, or 403 userRateLimitExceeded. */
  rateLimitNext(count = 1, status: 429 | 403 = 429): void {
    this.rateLimited = { count, status };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private mail(id: string): FakeMail {
    const mail = this.mails.find((m) => m.id === id);
    if (!mail) throw new Error(`no mail ${id}`);
    return mail;
  }

  private handle(req: FakeRequest): FakeResponse {
    if (req.method === "POST" && req.url.pathname === "/token") return this.token(new URLSearchParams(req.body));
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token || !this.accessTokens.has(token)) {
      return googleError(401, "UNAUTHENTICATED", "authError", "Request had invalid authentication credentials. Expected OAuth 2 access token.");
    }
    if (this.rateLimited && this.rateLimited.count > 0) {
      this.rateLimited.count--;
      return this.rateLimited.status === 429
        ? googleError(429, "RESOURCE_EXHAUSTED", "rateLimitExceeded", "Too many concurrent requests for user.")
        : googleError(403, "PERMISSION_DENIED", "userRateLimitExceeded", "User-rate limit exceeded.");
    }
    const prefix = "/gmail/v1/users/me";
    if (!req.url.pathname.startsWith(prefix)) return googleError(404, "NOT_FOUND", "notFound", "Not Found");
    const path = req.url.pathname.slice(prefix.length);
    const q = req.url.searchParams;
    const live = this.mails.filter((m) => q.get("includeSpamTrash") === "true" || !m.labelIds.some((l) => l === "TRASH" || l === "SPAM"));
    if (path === "/profile")
      return ok({
        emailAddress: this.email,
        messagesTotal: this.mails.length,
        threadsTotal: new Set(this.mails.map((m) => m.threadId)).size,
        historyId: String(this.history),
      });
    if (path === "/labels")
      return ok({ labels: [...this.labels.values()].map((l) => ({ ...l, messageListVisibility: "show", labelListVisibility: "labelShow" })) });
    let m = /^\/labels\/([^/]+)$/.exec(path);
    if (m) {
      const label = this.labels.get(decodeURIComponent(m[1] ?? ""));
      return label
        ? ok({ ...label, messagesTotal: this.mails.filter((x) => x.labelIds.includes(label.id)).length })
        : googleError(404, "NOT_FOUND", "notFound", "Requested entity was not found.");
    }
    if (path === "/threads") {
      const label = q.get("labelIds");
      const after = /after:(\d+)/.exec(q.get("q") ?? "")?.[1];
      const threads = new Map<string, FakeMail[]>();
      for (const mail of live) threads.set(mail.threadId, [...(threads.get(mail.threadId) ?? []), mail]);
      const matching = [...threads.entries()]
        .filter(
          ([, mails]) =>
            (label === null || mails.some((x) => x.labelIds.includes(label))) &&
            (after === undefined || mails.some((x) => x.internalDate >= Number(after) * 1000)),
        )
        .sort(([, a], [, b]) => Math.max(...b.map((x) => x.internalDate)) - Math.max(...a.map((x) => x.internalDate)));
      const max = Math.min(500, Number(q.get("maxResults") ?? 100) || 100);
      const start = Number(q.get("pageToken") ?? 0) || 0;
      const page = matching.slice(start, start + max);
      return ok({
        threads: page.map(([id, mails]) => ({
          id,
          snippet: mails[0]?.text.slice(0, 100) ?? "",
          historyId: String(Math.max(...mails.map((x) => x.historyId))),
        })),
        ...(start + max < matching.length ? { nextPageToken: String(start + max) } : {}),
        resultSizeEstimate: matching.length,
      });
    }
    m = /^\/threads\/([^/]+)$/.exec(path);
    if (m) {
      const threadId = m[1] ?? "";
      const mails = this.mails.filter((x) => x.threadId === threadId).sort((a, b) => a.internalDate - b.internalDate);
      if (mails.length === 0) return googleError(404, "NOT_FOUND", "notFound", "Requested entity was not found.");
      const full = q.get("format") !== "minimal";
      return ok({ id: threadId, historyId: String(Math.max(...mails.map((x) => x.historyId))), messages: mails.map((x) => this.message(x, full)) });
    }
    return googleError(404, "NOT_FOUND", "notFound", "Not Found");
  }

  private token(form: URLSearchParams): FakeResponse {
    const clientId = form.get("client_id") ?? "";
    if (this.clients.get(clientId) !== form.get("client_secret"))
      return { status: 401, body: { error: "invalid_client", error_description: "The OAuth client was not found." } };
    const refresh = form.get("refresh_token") ?? "";
    if (form.get("grant_type") !== "refresh_token") return { status: 400, body: { error: "unsupported_grant_type", error_description: "Invalid grant_type" } };
    if (!this.refreshTokens.has(refresh) || this.revoked.has(refresh))
      return { status: 400, body: { error: "invalid_grant", error_description: "Token has been expired or revoked." } };
    this.refreshes++;
    const access = `ya29.${hex()}`;
    this.accessTokens.set(access, this.clock() + 3_600_000);
    return ok({ access_token: access, expires_in: 3599, scope: "https://www.googleapis.com/auth/gmail.readonly", token_type: "Bearer" });
  }

  private message(x: FakeMail, full: boolean): GmailMessage {
    const base = {
      id: x.id,
      threadId: x.threadId,
      labelIds: x.labelIds,
      snippet: x.text.slice(0, 100),
      historyId: String(x.historyId),
      internalDate: String(x.internalDate),
    };
    if (!full) return base;
    const headers = [
      { name: "From", value: x.from },
      { name: "To", value: x.to },
      ...(x.cc ? [{ name: "Cc", value: x.cc }] : []),
      { name: "Subject", value: x.subject },
      { name: "Date", value: new Date(x.internalDate).toUTCString() },
      { name: "Message-ID", value: x.messageId },
      ...(x.inReplyTo
        ? [
            { name: "In-Reply-To", value: x.inReplyTo },
            { name: "References", value: x.inReplyTo },
          ]
        : []),
    ];
    const html = `<html><head><style>p{color:red}</style></head><body><p>${x.text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").split("\n").join("</p><p>")}</p></body></html>`;
    const parts = x.html
      ? [{ partId: "0", mimeType: "text/html", filename: "", headers: [], body: { size: html.length, data: b64(html) } }]
      : [
          { partId: "0", mimeType: "text/plain", filename: "", headers: [], body: { size: x.text.length, data: b64(x.text) } },
          { partId: "1", mimeType: "text/html", filename: "", headers: [], body: { size: html.length, data: b64(html) } },
        ];
    return { ...base, payload: { partId: "", mimeType: "multipart/alternative", filename: "", headers, body: { size: 0 }, parts } };
  }
}

const ok = (body: unknown): FakeResponse => ({ status: 200, body });

/** A small generated mailbox (threads with replies in INBOX and a label) for the demo. */
function seedGmailMailbox(fake: FakeGmail, options: { threads?: number; repliesPerThread?: number } = {}): { labelId: string; threadIds: string[] } {
  const labelId = fake.addLabel("Customers");
  const threadIds: string[] = [];
  const topics = ["Invoice for October", "Renewal quote", "Outage on Monday", "Feature request: SSO", "Onboarding call"];
  for (let i = 0; i < (options.threads ?? 5); i++) {
    const subject = topics[i % topics.length] ?? "Hello";
    const first = fake.send({
      from: `Customer ${i + 1} <customer${i + 1}@example.org>`,
      to: fake.email,
      subject,
      text: `Hi, about "${subject}": can you help?`,
      labels: ["INBOX", labelId],
    });
    threadIds.push(first);
    let last = first;
    for (let r = 0; r < (options.repliesPerThread ?? 2); r++) {
      const mine = r % 2 === 0;
      last = fake.send({
        from: mine ? fake.email : `Customer ${i + 1} <customer${i + 1}@example.org>`,
        to: mine ? `customer${i + 1}@example.org` : fake.email,
        subject: `Re: ${subject}`,
        text: mine ? "Thanks, looking into it." : "Any news?",
        labels: mine ? ["SENT"] : ["INBOX", labelId],
        replyTo: last,
      });
    }
  }
  return { labelId, threadIds };
}

/** A small mailbox for the demo: customer threads under a "Customers" label, with replies. */
export async function startDemoWorkspace(): Promise<DemoWorkspace> {
  const credentials = { client_id: "demo-client.apps.googleusercontent.com", client_secret: "demo-secret", refresh_token: "1//demo-refresh-token" };
  const gmail = await FakeGmail.start({
    email: "support@example.com",
    clientId: credentials.client_id,
    clientSecret: credentials.client_secret,
    refreshToken: credentials.refresh_token,
  });
  const threads = 5;
  const repliesPerThread = 2;
  const { labelId } = seedGmailMailbox(gmail, { threads, repliesPerThread });
  return {
    provider: "gmail",
    env: { CONNECTOR_GMAIL_API_URL: gmail.url, CONNECTOR_GOOGLE_TOKEN_URL: gmail.tokenUrl },
    credentials,
    resources: [{ resource_id: labelId, resource_type: "gmail_label" }],
    objects: threads * (1 + repliesPerThread),
    sampleQuery: "renewal quote",
    close: () => gmail.close(),
  };
}
