import { FakeHttpServer, type FakeRequest, type FakeResponse } from "./fake-http.js";
import type { DemoWorkspace } from "./demo-workspace.js";
import type { GithubComment, GithubIssue, GithubRepo } from "../../../src/features/connectors/github/client.js";

interface FakeRepo extends GithubRepo {
  collaborators: string[];
}

/**
 * A local GitHub REST API: /user, /user/repos, /repos/{o}/{r}, its issues (PRs included),
 * issue comments and collaborators, /users/{login}; page/per_page paging with absolute Link
 * headers on its own origin, x-ratelimit-* headers on every answer, 401 for a revoked token and
 * 403 + x-ratelimit-remaining: 0 + x-ratelimit-reset when the budget is exhausted.
 */
export class FakeGithub {
  readonly tokens = new Set<string>();
  private readonly revoked = new Set<string>();
  private readonly repos = new Map<string, FakeRepo>();
  private readonly issues = new Map<string, GithubIssue[]>();
  private readonly comments = new Map<string, GithubComment[]>();
  private readonly users = new Map<string, { login: string; email: string | null }>();
  private exhaustedUntil: number | null = null;
  private remaining = 5000;
  private nextId = 1000;

  private constructor(
    readonly http: FakeHttpServer,
    readonly login: string,
    /** Epoch ms for created/updated times; tests may move it. */
    public clock: () => number,
  ) {}

  static async start(options: { login?: string; token?: string; clock?: () => number; port?: number } = {}): Promise<FakeGithub> {
    let fake: FakeGithub | null = null;
    const http = await FakeHttpServer.start((req) => fake!.handle(req), options.port);
    fake = new FakeGithub(http, options.login ?? "fake-org", options.clock ?? Date.now);
    fake.tokens.add(options.token ?? "ghp_fake_token");
    return fake;
  }

  /** The base URL to configure as CONNECTOR_GITHUB_API_URL. */
  get url(): string {
    return this.http.origin;
  }

  private iso(): string {
    return new Date(this.clock()).toISOString();
  }

  addUser(login: string, email: string | null): void {
    this.users.set(login, { login, email });
  }

  addRepo(fullName: string, options: { private?: boolean; collaborators?: string[] } = {}): void {
    const [owner = "", name = ""] = fullName.split("/");
    const isPrivate = options.private === true;
    this.repos.set(fullName, {
      id: this.nextId++,
      name,
      full_name: fullName,
      private: isPrivate,
      visibility: isPrivate ? "private" : "public",
      archived: false,
      owner: { login: owner },
      html_url: `https://github.test/${fullName}`,
      collaborators: options.collaborators ?? [],
    });
    this.issues.set(fullName, []);
    this.comments.set(fullName, []);
  }

  /** Opens an issue (or a PR with `pr: true`); returns its number. */
  openIssue(repo: string, i: { title: string; body: string; user: string; pr?: boolean; labels?: string[] }): number {
    const list = this.issues.get(repo);
    if (!list) throw new Error(`no repo ${repo}`);
    const number = list.length + 1;
    const at = this.iso();
    list.push({
      id: this.nextId++,
      number,
      title: i.title,
      body: i.body,
      state: "open",
      user: { login: i.user },
      labels: (i.labels ?? []).map((name) => ({ name })),
      assignees: [],
      milestone: null,
      comments: 0,
      created_at: at,
      updated_at: at,
      closed_at: null,
      html_url: `https://github.test/${repo}/issues/${number}`,
      ...(i.pr ? { pull_request: { url: "", html_url: `https://github.test/${repo}/pull/${number}`, merged_at: null } } : {}),
    });
    return number;
  }

  editIssue(repo: string, number: number, patch: { title?: string; body?: string; state?: string }): void {
    const issue = this.issues.get(repo)?.find((x) => x.number === number);
    if (!issue) throw new Error(`no issue ${repo}#${number}`);
    Object.assign(issue, patch, { updated_at: this.iso() });
  }

  deleteIssue(repo: string, number: number): void {
    this.issues.set(
      repo,
      (this.issues.get(repo) ?? []).filter((x) => x.number !== number),
    );
    this.comments.set(
      repo,
      (this.comments.get(repo) ?? []).filter((c) => !c.issue_url.endsWith(`/issues/${number}`)),
    );
  }

  comment(repo: string, number: number, c: { body: string; user: string }): number {
    const id = this.nextId++;
    const at = this.iso();
    this.comments.get(repo)?.push({
      id,
      body: c.body,
      user: { login: c.user },
      created_at: at,
      updated_at: at,
      html_url: `https://github.test/${repo}/issues/${number}#issuecomment-${id}`,
      issue_url: `${this.url}/repos/${repo}/issues/${number}`,
    });
    const issue = this.issues.get(repo)?.find((x) => x.number === number);
    if (issue) issue.comments = (issue.comments ?? 0) + 1;
    return id;
  }

  revokeToken(token: string): void {
    this.revoked.add(token);
  }

  /** Every call answers 403 with x-ratelimit-remaining 0 until `resetAtMs` (rounded up to a second). */
  exhaustRateLimit(resetAtMs: number): void {
    this.exhaustedUntil = resetAtMs;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private handle(req: FakeRequest): FakeResponse {
    const now = this.clock();
    const reset = this.exhaustedUntil !== null && now < this.exhaustedUntil ? Math.ceil(this.exhaustedUntil / 1000) : Math.ceil(now / 1000) + 3600;
    if (this.exhaustedUntil !== null && now >= this.exhaustedUntil) this.exhaustedUntil = null;
    const rate = (remaining: number): Record<string, string> => ({
      "x-ratelimit-limit": "5000",
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": String(reset),
      "x-ratelimit-used": String(5000 - remaining),
      "x-ratelimit-resource": "core",
    });
    const token = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
    if (!token || this.revoked.has(token) || !this.tokens.has(token))
      return { status: 401, body: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" } };
    if (this.exhaustedUntil !== null) return { status: 403, body: { message: "API rate limit exceeded" }, headers: rate(0) };
    this.remaining = Math.max(1, this.remaining - 1);
    const answer = (status: number, body: unknown, extra: Record<string, string> = {}): FakeResponse => ({
      status,
      body,
      headers: { ...rate(this.remaining), ...extra },
    });
    const path = req.url.pathname;
    const q = req.url.searchParams;
    if (path === "/user") return answer(200, { login: this.login, id: 1, email: null });
    if (path === "/user/repos")
      return this.paged(
        req,
        [...this.repos.values()].map(({ collaborators: _c, ...r }) => r),
        answer,
      );
    const user = /^\/users\/([^/]+)$/.exec(path);
    if (user?.[1]) {
      const u = this.users.get(user[1]);
      return u ? answer(200, u) : answer(404, { message: "Not Found" });
    }
    const m = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(path);
    const repo = m?.[1] ? this.repos.get(m[1]) : undefined;
    if (!m || !repo) return answer(404, { message: "Not Found" });
    const since = q.get("since") ? Date.parse(q.get("since")!) : -Infinity;
    const byUpdated = <T extends { updated_at: string }>(list: readonly T[]): T[] =>
      list
        .filter((x) => Date.parse(x.updated_at) >= since)
        .sort((a, b) => (Date.parse(a.updated_at) - Date.parse(b.updated_at)) * (q.get("direction") === "desc" ? -1 : 1));
    switch (m[2] ?? "") {
      case "": {
        const { collaborators: _c, ...r } = repo;
        return answer(200, r);
      }
      case "/issues":
        return this.paged(req, byUpdated(this.issues.get(repo.full_name) ?? []), answer);
      case "/issues/comments":
        return this.paged(req, byUpdated(this.comments.get(repo.full_name) ?? []), answer);
      case "/collaborators":
        return this.paged(
          req,
          repo.collaborators.map((login) => ({ login })),
          answer,
        );
      default:
        return answer(404, { message: "Not Found" });
    }
  }

  private paged(req: FakeRequest, items: readonly unknown[], answer: (s: number, b: unknown, h?: Record<string, string>) => FakeResponse): FakeResponse {
    const perPage = Math.min(100, Number(req.url.searchParams.get("per_page") ?? 30) || 30);
    const page = Math.max(1, Number(req.url.searchParams.get("page") ?? 1) || 1);
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (n: number): string => {
      const u = new URL(req.url.toString());
      u.searchParams.set("page", String(n));
      return `${this.url}${u.pathname}${u.search}`;
    };
    const links = page < last ? [`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`] : [];
    return answer(200, slice, links.length > 0 ? { link: links.join(", ") } : {});
  }
}

/** A small GitHub account for the demo: one repository with issues, a pull request and comments. */
export async function startDemoWorkspace(): Promise<DemoWorkspace> {
  const token = "ghp_demo_token";
  const github = await FakeGithub.start({ token, login: "demo-org" });
  github.addRepo("demo-org/billing");
  const base = Date.now() - 4 * 86_400_000;
  let objects = 0;
  const issues: Array<[string, string, boolean, string[]]> = [
    [
      "Invoices are rounded twice",
      "Totals differ by one cent when a discount applies.",
      false,
      ["Reproduced with a 15% discount.", "Rounding happens in both the cart and the invoice renderer."],
    ],
    ["Round once, in the invoice renderer", "Fixes the double rounding reported in #1.", true, ["Looks good; please add a test for discounts."]],
    ["Migrate billing tables to PostgreSQL", "Plan: invoices first, then payments. Schema freeze until Friday.", false, []],
  ];
  issues.forEach(([title, body, pr, comments], i) => {
    github.clock = () => base + i * 86_400_000;
    const number = github.openIssue("demo-org/billing", { title, body, user: ["ada", "grace", "linus"][i % 3]!, pr, labels: pr ? [] : ["billing"] });
    objects++;
    comments.forEach((c, k) => {
      github.clock = () => base + i * 86_400_000 + (k + 1) * 3_600_000;
      github.comment("demo-org/billing", number, { body: c, user: ["grace", "linus", "ada"][(i + k) % 3]! });
      objects++;
    });
  });
  github.clock = Date.now;
  return {
    provider: "github",
    env: { CONNECTOR_GITHUB_API_URL: github.url },
    credentials: { access_token: token },
    resources: [{ resource_id: "demo-org/billing", resource_type: "repository" }],
    objects,
    sampleQuery: "why are invoices off by one cent",
    close: () => github.close(),
  };
}
