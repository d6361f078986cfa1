import { jsonBody, ProviderError, retryAfterAt } from "../provider-error.js";
import type { ProviderTransport } from "../provider-transport.js";

export interface LinearUser {
  id?: string;
  name?: string | null;
  email?: string | null;
}

export interface PageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

export interface Connection<T> {
  nodes: T[];
  pageInfo: PageInfo;
}

export interface LinearTeam {
  id: string;
  key: string;
  name: string;
  description?: string | null;
  private?: boolean;
}

export interface LinearProject {
  id: string;
  name: string;
  url?: string | null;
  state?: string | null;
  teams?: { nodes: Array<{ id: string; key?: string }> };
}

export interface LinearComment {
  id: string;
  body: string;
  url?: string | null;
  createdAt: string;
  updatedAt: string;
  user?: LinearUser | null;
  parent?: { id: string } | null;
  /** Set by the top-level comments query (the inline ones belong to the issue that holds them). */
  issue?: { id: string; identifier: string; trashed?: boolean | null; team?: { id: string; private?: boolean | null } | null } | null;
}

export interface LinearIssue {
  id: string;
  identifier: string;
  number: number;
  title: string;
  description?: string | null;
  url: string;
  priority?: number | null;
  priorityLabel?: string | null;
  createdAt: string;
  updatedAt: string;
  archivedAt?: string | null;
  canceledAt?: string | null;
  completedAt?: string | null;
  trashed?: boolean | null;
  state?: { name: string; type: string } | null;
  team?: { id: string; key: string; name: string; private?: boolean | null } | null;
  project?: { id: string; name: string } | null;
  assignee?: LinearUser | null;
  creator?: LinearUser | null;
  parent?: { id: string; identifier: string } | null;
  labels?: { nodes: Array<{ name: string }> };
  comments?: Connection<LinearComment>;
}

const USER = "{ id name email }";
const PAGE = "pageInfo { hasNextPage endCursor }";
const COMMENT = `id body url createdAt updatedAt user ${USER} parent { id }`;
const ISSUE = `id identifier number title description url priority priorityLabel createdAt updatedAt archivedAt canceledAt completedAt trashed
  state { name type } team { id key name private } project { id name } assignee ${USER} creator ${USER} parent { id identifier }
  labels { nodes { name } } comments(first: 50) { nodes { ${COMMENT} } ${PAGE} }`;

/** The GraphQL documents this connector sends; the test fake (test/helpers/fake-providers/linear.ts) answers them by operationName. */
export const LINEAR_QUERIES = {
  Viewer: "query Viewer { viewer { id name email organization { id name urlKey } } }",
  Teams: `query Teams($first: Int!, $after: String) { teams(first: $first, after: $after) { nodes { id key name description private } ${PAGE} } }`,
  Projects: `query Projects($first: Int!, $after: String) { projects(first: $first, after: $after) { nodes { id name url state teams { nodes { id key } } } ${PAGE} } }`,
  Team: "query Team($id: String!) { team(id: $id) { id key name description private } }",
  Project: "query Project($id: String!) { project(id: $id) { id name url state } }",
  TeamMembers: `query TeamMembers($id: String!, $first: Int!, $after: String) { team(id: $id) { members(first: $first, after: $after) { nodes { email } ${PAGE} } } }`,
  Issues: `query Issues($first: Int!, $after: String, $filter: IssueFilter) { issues(first: $first, after: $after, orderBy: updatedAt, includeArchived: true, filter: $filter) { nodes { ${ISSUE} } ${PAGE} } }`,
  IssueComments: `query IssueComments($id: String!, $first: Int!, $after: String) { issue(id: $id) { comments(first: $first, after: $after) { nodes { ${COMMENT} } ${PAGE} } } }`,
  Comments: `query Comments($first: Int!, $after: String, $filter: CommentFilter) { comments(first: $first, after: $after, orderBy: updatedAt, filter: $filter) { nodes { ${COMMENT} issue { id identifier trashed team { id private } } } ${PAGE} } }`,
  IssueIds: `query IssueIds($first: Int!, $after: String, $filter: IssueFilter) { issues(first: $first, after: $after, includeArchived: true, filter: $filter) { nodes { id trashed } ${PAGE} } }`,
  CommentIds: `query CommentIds($first: Int!, $after: String, $filter: CommentFilter) { comments(first: $first, after: $after, filter: $filter) { nodes { id issue { id trashed } } ${PAGE} } }`,
} as const;
export type LinearOperation = keyof typeof LINEAR_QUERIES;

interface GraphqlError {
  message?: string;
  extensions?: { type?: string; code?: string; userPresentableMessage?: string };
}

// Without a reset header, a minute is Linear's rate-limit window.
const DEFAULT_RETRY_MS = 60_000;

/** A reset header as an absolute time: Linear sends epoch milliseconds; seconds are accepted too. */
function resetAt(header: string | null): number | null {
  const n = Number(header);
  if (header === null || !Number.isFinite(n) || n <= 0) return null;
  return n > 1e12 ? n : n * 1000;
}

/**
 * Linear's GraphQL API through the provider transport: `POST {url}` with `{operationName, query, variables}`. A
 * personal API key (lin_api_...) is sent as is, an OAuth access token as `Bearer`. Failures come
 * back as `{errors:[{message, extensions:{type, code}}]}` (often with HTTP 400), classified here:
 * authentication errors -> auth, RATELIMITED / 429 -> rate_limited at the
 * x-ratelimit-*-reset time, "not found" / forbidden -> not_found.
 */
export class LinearClient {
  constructor(
    private readonly transport: ProviderTransport,
    private readonly token: string,
    private readonly signal: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {}

  async query<T>(operation: LinearOperation, variables: Record<string, unknown> = {}): Promise<T> {
    const res = await this.transport.send(this.transport.base.url(""), {
      method: "POST",
      authorization: this.token.startsWith("lin_api_") ? this.token : `Bearer ${this.token}`,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ operationName: operation, query: LINEAR_QUERIES[operation], variables }),
      signal: this.signal,
    });
    if (res.status >= 500) {
      await res.body?.cancel();
      throw new ProviderError("failed", `Linear answered HTTP ${res.status} to ${operation}`);
    }
    const body = (await jsonBody("Linear", res)) as { data?: T | null; errors?: GraphqlError[] };
    const error = body.errors?.[0];
    const type = (error?.extensions?.type ?? "").toLowerCase();
    const code = (error?.extensions?.code ?? "").toUpperCase();
    const message = error?.extensions?.userPresentableMessage ?? error?.message ?? `HTTP ${res.status}`;
    if (res.status === 429 || type === "ratelimited" || code === "RATELIMITED") {
      const at =
        retryAfterAt(res.headers.get("retry-after"), this.now()) ??
        resetAt(res.headers.get("x-ratelimit-requests-reset")) ??
        resetAt(res.headers.get("x-ratelimit-complexity-reset")) ??
        this.now() + DEFAULT_RETRY_MS;
      throw new ProviderError("rate_limited", `Linear rate-limited ${operation}`, Math.max(this.now(), at));
    }
    if (res.status === 401 || type === "authentication error" || code === "AUTHENTICATION_ERROR") {
      throw new ProviderError("auth", `Linear refused the token (${message})`);
    }
    if (type === "forbidden" || code === "FORBIDDEN" || code === "ENTITY_NOT_FOUND" || /not found/i.test(error?.message ?? "")) {
      throw new ProviderError("not_found", `Linear ${operation}: ${message}`);
    }
    if (error !== undefined || !res.ok || body.data === undefined || body.data === null) {
      throw new ProviderError("failed", `Linear ${operation} failed: ${message}`);
    }
    return body.data;
  }
}
