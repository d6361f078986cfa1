import type { SubgraphMember } from "../../src/features/context-graph/subgraph-service.js";
import { field, type HttpResult, type TestApp } from "../helpers/harness.js";

// App items shaped like the providers send them: a Slack thread, an email, a GitHub issue with
// comments, Linear tickets under a project and Notion pages under a database.

export const SLACK_ROOT = "1700000000.000100";

export const slackMessage = (ts: string, text: string, minute: number, user: string, extra: Record<string, unknown> = {}) => ({
  kind: "message",
  provider: "slack",
  external_id: ts,
  created_at: `2024-03-01T10:${String(minute).padStart(2, "0")}:00Z`,
  fields: { channel: "C1", user, text, ts, thread_ts: SLACK_ROOT, ...extra },
});

export const slackThread = [
  slackMessage(SLACK_ROOT, "Deploy failed on prod, @bob can you look?", 0, "ada"),
  slackMessage("1700000060.000200", "Looking into it now", 1, "bob"),
  slackMessage("1700000120.000300", "Rolled back, all green", 2, "bob"),
];

export const email = {
  kind: "email",
  provider: "gmail",
  external_id: "msg-1",
  created_at: "2024-03-02T08:00:00Z",
  fields: {
    subject: "Quarterly report",
    from: "Ada Lovelace <ada@example.com>",
    to: "Grace Hopper <grace@example.com>",
    cc: "carol@example.com",
    body: "Grace, the quarterly report is attached. John Smith works at Microsoft and lives in Seattle.",
  },
  attachments: [{ name: "report.pdf", text: "Revenue grew" }],
};

export const githubIssue = {
  kind: "ticket",
  provider: "github",
  external_id: "42",
  title: "Crash on start",
  created_at: "2024-03-03T09:00:00Z",
  fields: { body: "The app crashes on start for @ada", author: { login: "dev1" }, state: "open" },
  comments: [{ id: "gh-c-emb", author: { login: "dev2" }, body: "Same here, @ada please check" }],
};

export const githubComment = (id: string, body: string, minute: number) => ({
  kind: "comment",
  provider: "github",
  external_id: id,
  created_at: `2024-03-03T09:${String(minute).padStart(2, "0")}:00Z`,
  fields: { body, issue_id: "github:ticket:42", author: { login: `dev${minute}` } },
});

export const linearProject = { id: "linear-project-core", type: "project", title: "Core platform", content: { text: "The core platform project" } };

export const linearTicket = (external: string, title: string, extra: Record<string, unknown> = {}) => ({
  kind: "ticket",
  provider: "linear",
  external_id: external,
  title,
  created_at: "2024-03-04T09:00:00Z",
  fields: {
    description: `${title}: details`,
    assignee: { name: "Grace Hopper", email: "grace@example.com" },
    project: { id: "linear-project-core" },
    ...extra,
  },
});

export const notionDatabase = {
  kind: "knowledge_base",
  provider: "notion",
  external_id: "db1",
  title: "Engineering wiki",
  created_at: "2024-03-05T09:00:00Z",
  fields: { body: "All engineering pages" },
};

export const notionPage = (external: string, title: string, extra: Record<string, unknown> = {}) => ({
  kind: "knowledge_base",
  provider: "notion",
  external_id: external,
  title,
  created_at: "2024-03-05T10:00:00Z",
  fields: { body: `${title} page body`, parent: { id: "notion:knowledge_base:db1" }, author: { name: "Ada Lovelace", email: "ada@example.com" } },
  ...extra,
});

/** A subgraph member as the wire shows it. */
export type Member = SubgraphMember;

export interface Entity {
  name: string;
  type: string;
  namespace: string;
  entity_id: string;
  identifier: string | null;
  provider?: string;
}

export interface Relation {
  canonical_predicate: string;
  raw_predicate: string;
  context: string;
  confidence: number;
  temporal_details: string | null;
  timestamp: string;
  relationship_id: string;
  chunk_id: string;
  source_entity_id: string;
  target_entity_id: string;
  synthesized?: boolean;
}

export interface Triplet {
  source: Entity;
  target: Entity;
  relations: Relation[];
  chunk_id: string;
}

export interface SubgraphData {
  seed_source_id: string;
  sources: Member[];
  relations: Triplet[];
  auxiliary_relations: Triplet[];
  auxiliary_truncated: boolean;
  is_truncated: boolean;
  max_depth_reached: number;
}

export async function subgraph(t: TestApp, id: string, query: Record<string, string | string[]>): Promise<HttpResult & { data: SubgraphData }> {
  const res = await t.request("GET", `/context/${encodeURIComponent(id)}/subgraph`, { query });
  return { ...res, data: field<SubgraphData>(res.body, "data") };
}

export async function relationsPage(t: TestApp, query: Record<string, string>): Promise<{ res: HttpResult; relations: Triplet[]; next: number | null }> {
  const res = await t.request("GET", "/context/relations", { query });
  if (res.status !== 200) throw new Error(`relations failed: ${res.status} ${res.text}`);
  return { res, relations: field<Triplet[]>(res.body, "data.relations"), next: field<number | null>(res.body, "data.next_cursor") };
}

/** Every relation triplet of a collection (or one item), following the cursor. */
export async function allRelations(t: TestApp, query: Record<string, string>): Promise<Triplet[]> {
  const out: Triplet[] = [];
  let cursor: number | null = null;
  for (let i = 0; i < 1000; i += 1) {
    const page = await relationsPage(t, { ...query, limit: "50", ...(cursor === null ? {} : { cursor: String(cursor) }) });
    out.push(...page.relations);
    if (page.next === null) return out;
    cursor = page.next;
  }
  throw new Error("relations paging did not end");
}

export const membersById = (data: SubgraphData): Map<string, Member> => new Map(data.sources.map((m) => [m.source_id, m]));

export const predicatesOf = (triplets: readonly Triplet[]): string[] =>
  [...new Set(triplets.flatMap((t) => t.relations.map((r) => r.canonical_predicate)))].sort();
