import { randomUUID } from "node:crypto";
import { decodeOffset, encodeOffset, FakeHttpServer, type FakeRequest, type FakeResponse } from "./fake-http.js";
import type { LinearComment, LinearIssue, LinearTeam, LinearUser } from "../../../src/features/connectors/linear/client.js";
import type { DemoWorkspace } from "./demo-workspace.js";

interface FakeIssue {
  id: string;
  identifier: string;
  number: number;
  title: string;
  description: string;
  teamId: string;
  projectId: string | null;
  parentId: string | null;
  assigneeId: string | null;
  creatorId: string | null;
  state: { name: string; type: string };
  priority: number;
  labels: string[];
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
  trashed: boolean;
}

interface FakeComment {
  id: string;
  issueId: string;
  parentId: string | null;
  userId: string | null;
  body: string;
  createdAt: string;
  updatedAt: string;
}

type Filter = Record<string, unknown> | undefined;
const PRIORITY = ["No priority", "Urgent", "High", "Medium", "Low"];

/**
 * A local Linear GraphQL API (`POST /graphql`) answering this connector's operations by
 * operationName: viewer, teams, projects, team, project, a team's members, issues (filters on team, project and
 * updatedAt; includeArchived shows trashed issues), an issue's comments and the top-level
 * comments, with Relay paging (first/after, pageInfo). Auth failures and rate limits answer like
 * Linear: HTTP 400 `{errors:[{extensions:{type, code}}]}`, the latter with
 * x-ratelimit-requests-* headers (reset in epoch milliseconds).
 */
export class FakeLinear {
  readonly tokens = new Set<string>();
  private readonly revoked = new Set<string>();
  private readonly teams = new Map<string, LinearTeam>();
  private readonly projects = new Map<string, { id: string; name: string; teamIds: string[] }>();
  private readonly users = new Map<string, LinearUser>();
  /** Team id -> member user ids. */
  private readonly members = new Map<string, string[]>();
  private readonly issues: FakeIssue[] = [];
  private readonly comments: FakeComment[] = [];
  private rateLimited: { count: number; resetInMs: number } | null = null;

  private constructor(
    readonly http: FakeHttpServer,
    readonly organization: string,
    /** Epoch ms for createdAt/updatedAt; tests may move it. */
    public clock: () => number,
  ) {}

  static async start(options: { organization?: string; token?: string; clock?: () => number } = {}): Promise<FakeLinear> {
    let fake: FakeLinear | null = null;
    const http = await FakeHttpServer.start((req) => fake!.handle(req));
    fake = new FakeLinear(http, options.organization ?? "Acme", options.clock ?? Date.now);
    fake.tokens.add(options.token ?? "lin_api_fake_token");
    return fake;
  }

  /** The URL to configure as CONNECTOR_LINEAR_API_URL. */
  get url(): string {
    return `${this.http.origin}/graphql`;
  }

  private iso(): string {
    return new Date(this.clock()).toISOString();
  }

  addUser(name: string, email: string): string {
    const id = randomUUID();
    this.users.set(id, { id, name, email });
    return id;
  }

  /** A team; `members`: user ids (addUser) of a private team's members. */
  addTeam(key: string, name: string, options: { private?: boolean; members?: readonly string[] } = {}): string {
    const id = randomUUID();
    this.teams.set(id, { id, key, name, description: `${name} team`, private: options.private === true });
    this.members.set(id, [...(options.members ?? [])]);
    return id;
  }

  addProject(name: string, teamIds: string[]): string {
    const id = randomUUID();
    this.projects.set(id, { id, name, teamIds });
    return id;
  }

  /** Creates an issue in a team; returns its id. */
  addIssue(
    teamId: string,
    i: { title: string; description?: string; creatorId?: string; assigneeId?: string; projectId?: string; parentId?: string; labels?: string[] },
  ): string {
    const team = this.teams.get(teamId);
    if (!team) throw new Error(`no team ${teamId}`);
    const number = this.issues.filter((x) => x.teamId === teamId).length + 1;
    const at = this.iso();
    const id = randomUUID();
    this.issues.push({
      id,
      identifier: `${team.key}-${number}`,
      number,
      title: i.title,
      description: i.description ?? "",
      teamId,
      projectId: i.projectId ?? null,
      parentId: i.parentId ?? null,
      assigneeId: i.assigneeId ?? null,
      creatorId: i.creatorId ?? null,
      state: { name: "Todo", type: "unstarted" },
      priority: 3,
      labels: i.labels ?? [],
      createdAt: at,
      updatedAt: at,
      archivedAt: null,
      trashed: false,
    });
    return id;
  }

  editIssue(id: string, patch: { title?: string; description?: string; state?: { name: string; type: string } }): void {
    Object.assign(this.issue(id), patch, { updatedAt: this.iso() });
  }

  /** Moves an issue to the trash (Linear's delete): it stays listed with includeArchived, trashed. */
  trashIssue(id: string): void {
    Object.assign(this.issue(id), { trashed: true, archivedAt: this.iso(), updatedAt: this.iso() });
  }

  comment(issueId: string, c: { body: string; userId?: string; parentId?: string }): string {
    this.issue(issueId);
    const id = randomUUID();
    const at = this.iso();
    this.comments.push({ id, issueId, parentId: c.parentId ?? null, userId: c.userId ?? null, body: c.body, createdAt: at, updatedAt: at });
    return id;
  }

  editComment(id: string, body: string): void {
    const c = this.comments.find((x) => x.id === id);
    if (!c) throw new Error(`no comment ${id}`);
    Object.assign(c, { body, updatedAt: this.iso() });
  }

  deleteComment(id: string): void {
    const i = this.comments.findIndex((x) => x.id === id);
    if (i >= 0) this.comments.splice(i, 1);
  }

  revokeToken(token: string): void {
    this.revoked.add(token);
  }

  /** The next `count` calls answer RATELIMITED with a reset `resetInMs` from now. */
  rateLimitNext(resetInMs: number, count = 1): void {
    this.rateLimited = { count, resetInMs };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  private issue(id: string): FakeIssue {
    const issue = this.issues.find((x) => x.id === id);
    if (!issue) throw new Error(`no issue ${id}`);
    return issue;
  }

  private handle(req: FakeRequest): FakeResponse {
    const now = this.clock();
    const rate = (remaining: number, reset: number): Record<string, string> => ({
      "x-ratelimit-requests-limit": "1500",
      "x-ratelimit-requests-remaining": String(remaining),
      "x-ratelimit-requests-reset": String(reset),
    });
    if (req.method !== "POST" || req.url.pathname !== "/graphql") return { status: 404, body: { errors: [{ message: "Not found" }] } };
    const header = req.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice(7) : header;
    if (!this.tokens.has(token) || this.revoked.has(token)) {
      return {
        status: 400,
        body: {
          errors: [
            {
              message: "Authentication required, not authenticated",
              extensions: {
                type: "authentication error",
                code: "AUTHENTICATION_ERROR",
                userPresentableMessage: "You need to authenticate to access this operation.",
              },
            },
          ],
        },
      };
    }
    if (this.rateLimited && this.rateLimited.count > 0) {
      this.rateLimited.count--;
      return {
        status: 400,
        body: { errors: [{ message: "Rate limit exceeded", extensions: { type: "ratelimited", code: "RATELIMITED" } }] },
        headers: rate(0, now + this.rateLimited.resetInMs),
      };
    }
    const { operationName, variables = {} } = JSON.parse(req.body) as { operationName?: string; variables?: Record<string, unknown> };
    const data = this.answer(operationName ?? "", variables);
    if (data === null)
      return {
        status: 200,
        body: {
          data: null,
          errors: [
            {
              message: "Entity not found",
              extensions: { type: "invalid input", code: "INPUT_ERROR", userPresentableMessage: "Could not find referenced entity." },
            },
          ],
        },
        headers: rate(1499, now + 3_600_000),
      };
    return { status: 200, body: { data }, headers: rate(1499, now + 3_600_000) };
  }

  private answer(op: string, v: Record<string, unknown>): Record<string, unknown> | null {
    const first = Number(v.first ?? 50);
    const after = typeof v.after === "string" ? v.after : null;
    const filter = v.filter as Filter;
    switch (op) {
      case "Viewer":
        return {
          viewer: {
            id: "viewer",
            name: "Fake Viewer",
            email: "viewer@example.com",
            organization: { id: "org", name: this.organization, urlKey: this.organization.toLowerCase() },
          },
        };
      case "Teams":
        return { teams: page([...this.teams.values()], first, after) };
      case "Projects":
        return {
          projects: page(
            [...this.projects.values()].map((p) => this.projectNode(p)),
            first,
            after,
          ),
        };
      case "Team": {
        const t = this.teams.get(String(v.id));
        return t ? { team: t } : null;
      }
      case "Project": {
        const p = this.projects.get(String(v.id));
        return p ? { project: this.projectNode(p) } : null;
      }
      case "TeamMembers": {
        const members = this.members.get(String(v.id));
        if (members === undefined) return null;
        const users = members.flatMap((id) => {
          const u = this.users.get(id);
          return u ? [{ email: u.email ?? null }] : [];
        });
        return { team: { members: page(users, first, after) } };
      }
      case "Issues":
      case "IssueIds": {
        const list = this.issues.filter((i) => this.issueMatches(i, filter)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
        return {
          issues: page(
            list.map((i) => this.issueNode(i)),
            first,
            after,
          ),
        };
      }
      case "IssueComments": {
        const issue = this.issues.find((i) => i.id === v.id);
        return issue ? { issue: { comments: page(this.commentsOf(issue.id), first, after) } } : null;
      }
      case "Comments":
      case "CommentIds": {
        const list = this.comments
          .filter((c) => matchesTime(c.updatedAt, filter?.updatedAt) && this.issueMatches(this.issue(c.issueId), filter?.issue as Filter))
          .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
          .map((c) => {
            const issue = this.issue(c.issueId);
            const team = this.teams.get(issue.teamId);
            return {
              ...this.commentNode(c),
              issue: {
                id: issue.id,
                identifier: issue.identifier,
                trashed: issue.trashed,
                team: team ? { id: team.id, private: team.private === true } : null,
              },
            };
          });
        return { comments: page(list, first, after) };
      }
      default:
        return null;
    }
  }

  private issueMatches(i: FakeIssue, f: Filter): boolean {
    if (!f) return true;
    const eq = (x: unknown): unknown => (x as { id?: { eq?: unknown } } | undefined)?.id?.eq;
    if (f.team !== undefined && eq(f.team) !== i.teamId) return false;
    if (f.project !== undefined && eq(f.project) !== i.projectId) return false;
    return matchesTime(i.updatedAt, f.updatedAt);
  }

  private projectNode(p: { id: string; name: string; teamIds: string[] }): Record<string, unknown> {
    return {
      id: p.id,
      name: p.name,
      url: `https://linear.test/project/${p.id}`,
      state: "started",
      teams: { nodes: p.teamIds.map((id) => ({ id, key: this.teams.get(id)?.key ?? "" })) },
    };
  }

  private commentsOf(issueId: string): LinearComment[] {
    return this.comments
      .filter((c) => c.issueId === issueId)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((c) => this.commentNode(c));
  }

  private commentNode(c: FakeComment): LinearComment {
    return {
      id: c.id,
      body: c.body,
      url: `https://linear.test/comment/${c.id}`,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      user: c.userId ? (this.users.get(c.userId) ?? null) : null,
      parent: c.parentId ? { id: c.parentId } : null,
    };
  }

  private issueNode(i: FakeIssue): LinearIssue {
    const team = this.teams.get(i.teamId);
    const project = i.projectId ? this.projects.get(i.projectId) : undefined;
    const parent = i.parentId ? this.issues.find((x) => x.id === i.parentId) : undefined;
    return {
      id: i.id,
      identifier: i.identifier,
      number: i.number,
      title: i.title,
      description: i.description,
      url: `https://linear.test/issue/${i.identifier}`,
      priority: i.priority,
      priorityLabel: PRIORITY[i.priority] ?? null,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
      archivedAt: i.archivedAt,
      canceledAt: null,
      completedAt: null,
      trashed: i.trashed,
      state: i.state,
      team: team ? { id: team.id, key: team.key, name: team.name, private: team.private === true } : null,
      project: project ? { id: project.id, name: project.name } : null,
      assignee: i.assigneeId ? (this.users.get(i.assigneeId) ?? null) : null,
      creator: i.creatorId ? (this.users.get(i.creatorId) ?? null) : null,
      parent: parent ? { id: parent.id, identifier: parent.identifier } : null,
      labels: { nodes: i.labels.map((name) => ({ name })) },
      comments: page(this.commentsOf(i.id), 50, null),
    };
  }
}

function matchesTime(at: string, f: unknown): boolean {
  if (f === undefined || f === null) return true;
  const c = f as { gt?: string; gte?: string; lt?: string; lte?: string };
  const t = Date.parse(at);
  return (
    (c.gt === undefined || t > Date.parse(c.gt)) &&
    (c.gte === undefined || t >= Date.parse(c.gte)) &&
    (c.lt === undefined || t < Date.parse(c.lt)) &&
    (c.lte === undefined || t <= Date.parse(c.lte))
  );
}

function page<T>(items: readonly T[], first: number, after: string | null): { nodes: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } {
  const start = Math.max(0, decodeOffset(after));
  const nodes = items.slice(start, start + first);
  const more = start + first < items.length;
  return { nodes, pageInfo: { hasNextPage: more, endCursor: nodes.length > 0 ? encodeOffset(start + nodes.length) : after } };
}

/** A small generated Linear workspace (teams, a project, issues with comments) for the demo. */
function seedLinearWorkspace(
  fake: FakeLinear,
  options: { teams?: number; issuesPerTeam?: number; commentsPerIssue?: number } = {},
): { teamIds: string[]; issueIds: string[] } {
  const ada = fake.addUser("Ada Lovelace", "ada@example.com");
  const bob = fake.addUser("Bob Builder", "bob@example.com");
  const teamIds: string[] = [];
  const issueIds: string[] = [];
  const topics = [
    "login fails on Safari",
    "export to CSV is slow",
    "billing page shows the wrong currency",
    "search misses archived items",
    "onboarding email is sent twice",
  ];
  for (let t = 0; t < (options.teams ?? 2); t++) {
    const key = ["ENG", "OPS", "WEB", "API"][t % 4] ?? "ENG";
    const teamId = fake.addTeam(t < 4 ? key : `${key}${t}`, `${key} team ${t + 1}`);
    teamIds.push(teamId);
    const projectId = fake.addProject(`Q${(t % 4) + 1} roadmap`, [teamId]);
    for (let i = 0; i < (options.issuesPerTeam ?? 5); i++) {
      const topic = topics[i % topics.length] ?? "something broke";
      const id = fake.addIssue(teamId, {
        title: `Bug: ${topic}`,
        description: `Reported by a customer: ${topic}. Steps to reproduce follow.`,
        creatorId: ada,
        assigneeId: bob,
        ...(i % 2 === 0 ? { projectId } : {}),
        labels: ["bug"],
      });
      issueIds.push(id);
      for (let c = 0; c < (options.commentsPerIssue ?? 2); c++)
        fake.comment(id, { body: c % 2 === 0 ? `I can reproduce ${topic}.` : "Fix is in review.", userId: c % 2 === 0 ? bob : ada });
    }
  }
  return { teamIds, issueIds };
}

/** A small Linear workspace for the demo: two teams with a roadmap project, bug reports and comments. */
export async function startDemoWorkspace(): Promise<DemoWorkspace> {
  const token = "lin_api_demo_token";
  const linear = await FakeLinear.start({ token, organization: "Demo" });
  const teams = 2;
  const issuesPerTeam = 5;
  const commentsPerIssue = 2;
  const { teamIds } = seedLinearWorkspace(linear, { teams, issuesPerTeam, commentsPerIssue });
  return {
    provider: "linear",
    env: { CONNECTOR_LINEAR_API_URL: linear.url },
    credentials: { api_token: token },
    resources: teamIds.map((id) => ({ resource_id: id, resource_type: "linear_team" })),
    objects: teams * issuesPerTeam * (1 + commentsPerIssue),
    sampleQuery: "billing page shows the wrong currency",
    close: () => linear.close(),
  };
}
