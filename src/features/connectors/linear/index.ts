import type { ConnectorProvider, Credentials, ResourceRef, SyncedObject } from "../provider.js";
import { ProviderError, nullIfNotFound } from "../provider-error.js";
import { ApiBase, ProviderTransport } from "../provider-transport.js";
import { tokenOf } from "../token-credentials.js";
import { LinearClient, type Connection, type LinearComment, type LinearIssue, type LinearProject, type LinearTeam } from "./client.js";
import { LINEAR_DESCRIPTOR } from "./credentials.js";
import { linearCommentObject, linearIssueObject } from "./mapping.js";
import { isoWindow } from "../iso-window.js";

// Issues carry up to 50 inline comments each: 50 issues keep a page within the complexity budget.
const ISSUE_PAGE = 50;
const COMMENT_PAGE = 100;
const ID_PAGE = 250;
const MEMBER_PAGE = 250;

type Stage = "issues" | "comments";
interface LinearPullState {
  stage: Stage;
  after: string | null;
}

interface DiscoverCursor {
  stage: "teams" | "projects";
  after: string | null;
}

const encodeCursor = (c: DiscoverCursor): string => Buffer.from(JSON.stringify(c)).toString("base64url");
function decodeCursor(raw: string | null): DiscoverCursor {
  if (raw === null) return { stage: "teams", after: null };
  try {
    const c = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as DiscoverCursor;
    if ((c.stage === "teams" || c.stage === "projects") && (c.after === null || typeof c.after === "string")) return c;
  } catch {
    // falls through to the error below
  }
  throw new ProviderError("bad_cursor", "the discover cursor was not issued by this Linear connector");
}

/** The issue filter of a resource: its team or its project. */
const scopeFilter = (r: ResourceRef): Record<string, unknown> =>
  r.resourceType === "linear_project" ? { project: { id: { eq: r.resourceId } } } : { team: { id: { eq: r.resourceId } } };

type TeamRef = { id: string; private?: boolean | null } | null | undefined;

/**
 * Who may read the issues of each private team among `teams`: its members' e-mails (lowercased).
 * A private team whose members show no e-mail gets a group principal, so it is never left open.
 * Public teams are absent: their issues are visible to the whole workspace (no acl).
 */
async function privateTeamAcls(c: LinearClient, teams: readonly TeamRef[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const team of teams) {
    if (!team || team.private !== true || out.has(team.id)) continue;
    const emails = new Set<string>();
    let after: string | null = null;
    do {
      const data: { team: { members: Connection<{ email?: string | null }> } } = await c.query("TeamMembers", { id: team.id, first: MEMBER_PAGE, after });
      for (const m of data.team.members.nodes) if (m.email) emails.add(m.email.toLowerCase());
      const p = data.team.members.pageInfo;
      after = p.hasNextPage && p.endCursor ? p.endCursor : null;
    } while (after !== null);
    out.set(team.id, emails.size > 0 ? [...emails].sort() : [`group:linear:team:${team.id}`]);
  }
  return out;
}

/** Stamps an object with its team's acl when the team is private (a per-object provider permission). */
const withAcl =
  (acls: ReadonlyMap<string, string[]>, team: TeamRef) =>
  (o: SyncedObject): SyncedObject => {
    const acl = team ? acls.get(team.id) : undefined;
    return acl === undefined ? o : { ...o, acl };
  };

/**
 * Linear: teams (`linear_team`) and projects (`linear_project`) are resources; issues are
 * `ticket` items, comments `comment` items under them. A window pulls the issues updated in it
 * (with their comments inline, all pages), then the comments updated in it (a new comment on an
 * old issue). Trashed issues are skipped; the id-only reconciliation removes them.
 */
export function createLinearProvider(url: string, now: () => number = Date.now): ConnectorProvider {
  const transport = new ProviderTransport("Linear", new ApiBase(url));
  const client = (credentials: Credentials, signal: AbortSignal): LinearClient => new LinearClient(transport, tokenOf(credentials), signal, now);

  /** Every comment of an issue: the inline first page, then the rest. */
  async function commentsOf(c: LinearClient, issue: LinearIssue): Promise<LinearComment[]> {
    const out = [...(issue.comments?.nodes ?? [])];
    let page = issue.comments?.pageInfo;
    while (page?.hasNextPage) {
      const data = await c.query<{ issue: { comments: Connection<LinearComment> } }>("IssueComments", {
        id: issue.id,
        first: COMMENT_PAGE,
        after: page.endCursor,
      });
      out.push(...data.issue.comments.nodes);
      page = data.issue.comments.pageInfo;
    }
    return out;
  }

  const nextOf = (p: { hasNextPage: boolean; endCursor: string | null }): string | null => (p.hasNextPage && p.endCursor ? p.endCursor : null);

  return {
    descriptor: LINEAR_DESCRIPTOR,

    async verify(credentials, signal) {
      const data = await client(credentials, signal).query<{ viewer: { organization: { name: string; urlKey: string } } }>("Viewer");
      return { accountScope: data.viewer.organization.name, accountLabel: data.viewer.organization.name };
    },

    async discover(credentials, page, signal) {
      const c = client(credentials, signal);
      const cursor = decodeCursor(page.cursor);
      if (cursor.stage === "teams") {
        const data = await c.query<{ teams: Connection<LinearTeam> }>("Teams", { first: page.limit, after: cursor.after });
        const after = nextOf(data.teams.pageInfo);
        return {
          resources: data.teams.nodes.map((t) => ({
            id: t.id,
            name: t.name,
            resource_type: "linear_team",
            metadata: { key: t.key, description: t.description ?? "", private: t.private === true },
          })),
          nextCursor: encodeCursor(after ? { stage: "teams", after } : { stage: "projects", after: null }),
        };
      }
      const data = await c.query<{ projects: Connection<LinearProject> }>("Projects", { first: page.limit, after: cursor.after });
      const after = nextOf(data.projects.pageInfo);
      return {
        resources: data.projects.nodes.map((p) => ({
          id: p.id,
          name: p.name,
          resource_type: "linear_project",
          metadata: { url: p.url ?? null, state: p.state ?? null, team_keys: (p.teams?.nodes ?? []).map((t) => t.key ?? t.id) },
        })),
        nextCursor: after ? encodeCursor({ stage: "projects", after }) : null,
      };
    },

    async describeResource(credentials, resourceType, resourceId, signal) {
      const c = client(credentials, signal);
      return nullIfNotFound(async () => {
        if (resourceType === "linear_team") {
          const t = (await c.query<{ team: LinearTeam | null }>("Team", { id: resourceId })).team;
          return t ? { id: t.id, name: t.name, resource_type: "linear_team", metadata: { key: t.key, private: t.private === true } } : null;
        }
        if (resourceType === "linear_project") {
          const p = (await c.query<{ project: LinearProject | null }>("Project", { id: resourceId })).project;
          return p ? { id: p.id, name: p.name, resource_type: "linear_project", metadata: { url: p.url ?? null } } : null;
        }
        return null;
      });
    },

    async resourceAcl() {
      // Decided per issue (its team; a project's issues can come from several teams): see pull.
      return null;
    },

    openWindow: isoWindow,

    async pull(req) {
      const c = client(req.credentials, req.signal);
      const r = req.resource;
      const state = (req.state as LinearPullState | null) ?? { stage: "issues", after: null };
      // No upper bound: an object updated while the run goes is pulled now and again next time.
      const updatedAt = { gte: req.window.start };
      const objects: SyncedObject[] = [];
      let after: string | null;
      if (state.stage === "issues") {
        const data = await c.query<{ issues: Connection<LinearIssue> }>("Issues", {
          first: ISSUE_PAGE,
          after: state.after,
          filter: { ...scopeFilter(r), updatedAt },
        });
        const acls = await privateTeamAcls(
          c,
          data.issues.nodes.map((i) => i.team),
        );
        for (const issue of data.issues.nodes) {
          if (issue.trashed === true) continue;
          const acl = withAcl(acls, issue.team);
          objects.push(acl(linearIssueObject(r.resourceType, issue)));
          for (const comment of await commentsOf(c, issue)) objects.push(acl(linearCommentObject(r.resourceType, issue, comment)));
        }
        after = nextOf(data.issues.pageInfo);
      } else {
        const data = await c.query<{ comments: Connection<LinearComment> }>("Comments", {
          first: COMMENT_PAGE,
          after: state.after,
          filter: { issue: scopeFilter(r), updatedAt },
        });
        const acls = await privateTeamAcls(
          c,
          data.comments.nodes.map((cm) => cm.issue?.team),
        );
        for (const comment of data.comments.nodes) {
          if (comment.issue && comment.issue.trashed !== true)
            objects.push(withAcl(acls, comment.issue.team)(linearCommentObject(r.resourceType, comment.issue, comment)));
        }
        after = nextOf(data.comments.pageInfo);
      }
      if (after !== null) return { objects, next: { stage: state.stage, after } satisfies LinearPullState };
      return { objects, next: state.stage === "issues" ? ({ stage: "comments", after: null } satisfies LinearPullState) : null };
    },

    async listLiveIds(credentials, resource, state, signal) {
      const c = client(credentials, signal);
      const s = (state as LinearPullState | null) ?? { stage: "issues", after: null };
      let ids: Array<{ kind: "ticket" | "comment"; nativeId: string }>;
      let after: string | null;
      if (s.stage === "issues") {
        const data = await c.query<{ issues: Connection<{ id: string; trashed?: boolean | null }> }>("IssueIds", {
          first: ID_PAGE,
          after: s.after,
          filter: scopeFilter(resource),
        });
        ids = data.issues.nodes.filter((i) => i.trashed !== true).map((i) => ({ kind: "ticket", nativeId: i.id }));
        after = nextOf(data.issues.pageInfo);
      } else {
        const data = await c.query<{ comments: Connection<{ id: string; issue?: { id: string; trashed?: boolean | null } | null }> }>("CommentIds", {
          first: ID_PAGE,
          after: s.after,
          filter: { issue: scopeFilter(resource) },
        });
        ids = data.comments.nodes.filter((cm) => cm.issue && cm.issue.trashed !== true).map((cm) => ({ kind: "comment", nativeId: cm.id }));
        after = nextOf(data.comments.pageInfo);
      }
      if (after !== null) return { ids, next: { stage: s.stage, after } satisfies LinearPullState };
      return { ids, next: s.stage === "issues" ? ({ stage: "comments", after: null } satisfies LinearPullState) : null };
    },
  };
}
