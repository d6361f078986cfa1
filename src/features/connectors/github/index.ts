import type { ConnectorProvider, Credentials, SyncedObject } from "../provider.js";
import { ProviderError, nullIfNotFound } from "../provider-error.js";
import { tokenOf } from "../token-credentials.js";
import { GithubClient, type GithubComment, type GithubIssue, type GithubRepo } from "./client.js";
import { GITHUB_DESCRIPTOR } from "./credentials.js";
import { commentNativeId, githubCommentObject, githubIssueObject, issueNativeId } from "./mapping.js";
import { isoWindow } from "../iso-window.js";
import { ApiBase, ProviderTransport } from "../provider-transport.js";

const PER_PAGE = 100;

type Stage = "issues" | "comments";
interface GithubPullState {
  stage: Stage;
  /** The next page's absolute URL (Link header); null: the stage's first page. */
  url: string | null;
}

/**
 * GitHub: repositories (`owner/repo`) are resources; issues and pull requests are `ticket`
 * items, their comments `comment` items under them. A window pulls issues, then comments,
 * both sorted by updated ascending with `since` = window start.
 */
export function createGithubProvider(baseUrl: string, now: () => number = Date.now): ConnectorProvider {
  const transport = new ProviderTransport("GitHub", new ApiBase(baseUrl));
  const client = (credentials: Credentials, signal: AbortSignal): GithubClient => new GithubClient(transport, tokenOf(credentials), signal, now);
  // A discover cursor is a next link this connector handed out: /user/repos on the configured API, by parsed URL.
  const reposPath = `${transport.base.path}/user/repos`;
  const discoverCursor = (cursor: string): string => {
    const url = transport.base.contains(cursor);
    if (url === null || url.pathname !== reposPath) throw new ProviderError("bad_cursor", "the discover cursor was not issued by this GitHub connector");
    return url.toString();
  };

  const listUrl = (c: GithubClient, repo: string, stage: Stage, since: string | null): string =>
    c.url(stage === "issues" ? `/repos/${repo}/issues` : `/repos/${repo}/issues/comments`, {
      ...(stage === "issues" ? { state: "all" } : {}),
      ...(since ? { since } : {}),
      sort: "updated",
      direction: "asc",
      per_page: PER_PAGE,
    });

  return {
    descriptor: GITHUB_DESCRIPTOR,

    async verify(credentials, signal) {
      const user = await client(credentials, signal).user();
      return { accountScope: user.login, accountLabel: user.login };
    },

    async discover(credentials, page, signal) {
      const c = client(credentials, signal);
      const url = page.cursor !== null ? discoverCursor(page.cursor) : c.url("/user/repos", { per_page: Math.min(page.limit, PER_PAGE), sort: "full_name" });
      const repos = await c.page<GithubRepo>(url);
      return {
        resources: repos.items.map((r) => ({
          id: r.full_name,
          name: r.full_name,
          resource_type: "repository",
          metadata: {
            private: r.private,
            visibility: r.visibility ?? (r.private ? "private" : "public"),
            archived: r.archived === true,
            html_url: r.html_url ?? null,
            pushed_at: r.pushed_at ?? null,
          },
        })),
        nextCursor: repos.next,
      };
    },

    async describeResource(credentials, resourceType, resourceId, signal) {
      if (resourceType !== "repository" && resourceType !== "repo") return null;
      if (!/^[\w.-]+\/[\w.-]+$/.test(resourceId)) return null;
      return nullIfNotFound(async () => {
        const r = await client(credentials, signal).repo(resourceId);
        return { id: r.full_name, name: r.full_name, resource_type: "repository", metadata: { private: r.private } };
      });
    },

    async resourceAcl(credentials, resource, signal) {
      const c = client(credentials, signal);
      const repo = await c.repo(resource.resourceId);
      if (!repo.private) return null;
      // Collaborators become the ACL only when every one of them has a public e-mail; otherwise
      // a group principal keeps the repository's items restricted rather than open.
      const emails: string[] = [];
      let url: string | null = c.url(`/repos/${resource.resourceId}/collaborators`, { per_page: PER_PAGE });
      while (url !== null) {
        const page: { items: Array<{ login: string }>; next: string | null } = await c.page<{ login: string }>(url);
        for (const collaborator of page.items) {
          const user = (await c.get<{ email?: string | null }>(c.url(`/users/${collaborator.login}`))).body;
          if (!user.email) return [`group:github:${resource.resourceId.toLowerCase()}`];
          emails.push(user.email.toLowerCase());
        }
        url = page.next;
      }
      return emails;
    },

    openWindow: isoWindow,

    async pull(req) {
      const c = client(req.credentials, req.signal);
      const repo = req.resource.resourceId;
      const state = (req.state as GithubPullState | null) ?? { stage: "issues", url: null };
      const url = state.url ?? listUrl(c, repo, state.stage, req.window.start);
      const objects: SyncedObject[] = [];
      let next: string | null;
      if (state.stage === "issues") {
        const page = await c.page<GithubIssue>(url);
        objects.push(...page.items.map((i) => githubIssueObject(repo, i)));
        next = page.next;
      } else {
        const page = await c.page<GithubComment>(url);
        for (const comment of page.items) {
          const o = githubCommentObject(repo, comment);
          if (o) objects.push(o);
        }
        next = page.next;
      }
      if (next !== null) return { objects, next: { stage: state.stage, url: next } satisfies GithubPullState };
      return { objects, next: state.stage === "issues" ? ({ stage: "comments", url: null } satisfies GithubPullState) : null };
    },

    async listLiveIds(credentials, resource, state, signal) {
      const c = client(credentials, signal);
      const repo = resource.resourceId;
      const s = (state as GithubPullState | null) ?? { stage: "issues", url: null };
      const url = s.url ?? listUrl(c, repo, s.stage, null);
      let ids: Array<{ kind: "ticket" | "comment"; nativeId: string }>;
      let next: string | null;
      if (s.stage === "issues") {
        const page = await c.page<GithubIssue>(url);
        ids = page.items.map((i) => ({ kind: "ticket", nativeId: issueNativeId(repo, i.number) }));
        next = page.next;
      } else {
        const page = await c.page<GithubComment>(url);
        ids = page.items.map((cm) => ({ kind: "comment", nativeId: commentNativeId(repo, cm.id) }));
        next = page.next;
      }
      if (next !== null) return { ids, next: { stage: s.stage, url: next } satisfies GithubPullState };
      return { ids, next: s.stage === "issues" ? ({ stage: "comments", url: null } satisfies GithubPullState) : null };
    },
  };
}
