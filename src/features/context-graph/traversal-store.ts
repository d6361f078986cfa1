import { sql } from "kysely";
import type { Visibility } from "../items/item-visibility.js";
import { visibleItem } from "../items/visibility-store.js";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { GraphScope } from "./graph-write-store.js";

/** The columns a traversal needs of an item. */
export interface GraphItem {
  readonly id: string;
  readonly source_id: string;
  readonly title: string;
  readonly app_kind: string | null;
  readonly app_provider: string | null;
  readonly app_external_id: string | null;
  readonly thread_id: string | null;
  readonly item_timestamp: number | null;
  readonly created_at: number;
}

/** How a neighbour is tied to the item it was reached from. */
export type Tie =
  { readonly kind: "relates_to"; readonly type: string } | { readonly kind: "parent" } | { readonly kind: "child" } | { readonly kind: "same_thread" };

export interface Neighbor {
  readonly from: GraphItem;
  readonly item: GraphItem;
  readonly tie: Tie;
}

/**
 * Which items a traversal may see: one graph (the tenancy: organization, database, collection,
 * and the corpus) and the caller's ACL. Every query here is scoped by the graph's organization.
 */
export interface TraversalScope extends GraphScope {
  readonly backend: Backend;
  /** Expanded principals, or null for no ACL scoping. */
  readonly principals: readonly string[] | null;
  readonly now: number;
  /** Leave out items written by connectors (POST /query without query_apps). */
  readonly excludeConnectorItems?: boolean;
}

const COLUMNS = ["id", "source_id", "title", "app_kind", "app_provider", "app_external_id", "thread_id", "item_timestamp", "created_at"] as const;

export function visibilityOf(s: TraversalScope): Visibility {
  return {
    orgId: s.orgId,
    databaseId: s.databaseId,
    collection: s.collection,
    corpora: [s.corpus],
    ids: null,
    metadata: {},
    additional: {},
    sourceFields: {},
    principals: s.principals,
    now: s.now,
    excludeConnectorItems: s.excludeConnectorItems === true,
  };
}

const ITEM_COLUMNS = COLUMNS.map((c) => `i.${c}` as const);

/** A stored link seen from one end: its owner's parent is `parent`, seen from the parent a `child`. */
function tieOf(linkKind: string, relationType: string, hierarchy: "parent" | "child"): Tie {
  return linkKind === "parent" ? { kind: hierarchy } : { kind: "relates_to", type: relationType };
}

/** Links read per step, before visibility drops some; bounds the work of a hub's huge fan-out. */
const LINK_OVERFETCH = 2;

/** The visible items with these public ids. */
export async function itemsBySource(db: Executor, s: TraversalScope, sourceIds: readonly string[]): Promise<GraphItem[]> {
  if (sourceIds.length === 0) return [];
  return db
    .selectFrom("context_items as i")
    .select(ITEM_COLUMNS)
    .where("i.org_id", "=", s.orgId)
    .where(visibleItem(s.backend, "i", visibilityOf(s)))
    .where("i.source_id", "in", [...sourceIds])
    .execute();
}

/** The visible items with these internal ids. */
async function itemsById(db: Executor, s: TraversalScope, ids: readonly string[]): Promise<GraphItem[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("context_items as i")
    .select(ITEM_COLUMNS)
    .where("i.org_id", "=", s.orgId)
    .where(visibleItem(s.backend, "i", visibilityOf(s)))
    .where("i.id", "in", [...ids])
    .execute();
}

/**
 * Every visible neighbour of the frontier: explicit links both ways (a link keeps its declared
 * type whichever end the traversal starts from), parents, children and thread-mates. At most
 * `limit` new items per tie, in a stable order, so a huge thread cannot flood one step; items
 * in `seen` (already members) are left out in SQL so they never take the place of new ones.
 */
export async function neighborsOf(
  db: Executor,
  s: TraversalScope,
  frontier: readonly GraphItem[],
  seen: readonly GraphItem[],
  limit: number,
): Promise<Neighbor[]> {
  if (frontier.length === 0) return [];
  const v = visibilityOf(s);
  const byId = new Map(frontier.map((f) => [f.id, f]));
  const bySource = new Map(frontier.map((f) => [f.source_id, f]));
  const out: Neighbor[] = [];
  const ids = [...byId.keys()];
  const sources = [...bySource.keys()];
  // The frontier is always seen: an empty NOT IN list would not be valid SQL.
  const excluded = seen.length > 0 ? seen : frontier;
  const seenIds = excluded.map((i) => i.id);
  const seenSources = excluded.map((i) => i.source_id);

  // Links first, then their visible ends by primary or unique key: two index lookups each,
  // where a join lets a planner hash every item of the collection.
  const outgoing = await db
    .selectFrom("context_graph_links")
    .select(["item_id", "target_source_id", "kind", "relation_type"])
    .where("org_id", "=", s.orgId)
    .where("item_id", "in", ids)
    .where("target_source_id", "not in", seenSources)
    .orderBy("target_source_id")
    .limit(limit * LINK_OVERFETCH)
    .execute();
  const targets = new Map((await itemsBySource(db, s, [...new Set(outgoing.map((l) => l.target_source_id))])).map((i) => [i.source_id, i]));
  for (const l of outgoing) {
    const from = byId.get(l.item_id);
    const item = targets.get(l.target_source_id);
    if (from !== undefined && item !== undefined) out.push({ from, item, tie: tieOf(l.kind, l.relation_type, "parent") });
  }

  const incoming = await db
    .selectFrom("context_graph_links")
    .select(["item_id", "target_source_id", "kind", "relation_type"])
    .where((eb) => eb.and({ org_id: s.orgId, database_id: s.databaseId, corpus: s.corpus, collection: s.collection }))
    .where("target_source_id", "in", sources)
    .where("item_id", "not in", seenIds)
    .orderBy("item_id")
    .limit(limit * LINK_OVERFETCH)
    .execute();
  const owners = new Map((await itemsById(db, s, [...new Set(incoming.map((l) => l.item_id))])).map((i) => [i.id, i]));
  for (const l of incoming) {
    const from = bySource.get(l.target_source_id);
    const item = owners.get(l.item_id);
    if (from !== undefined && item !== undefined) out.push({ from, item, tie: tieOf(l.kind, l.relation_type, "child") });
  }

  // Thread-mates share a thread id; a thread's explicit root is the item whose id or external id it is.
  const threadOf = new Map<string, GraphItem>();
  for (const f of frontier) {
    if (f.thread_id !== null) threadOf.set(f.thread_id, f);
    if (!threadOf.has(f.source_id)) threadOf.set(f.source_id, f);
    if (f.app_external_id !== null && !threadOf.has(f.app_external_id)) threadOf.set(f.app_external_id, f);
  }
  const rootKeys = frontier.flatMap((f) => (f.thread_id === null ? [] : [f.thread_id]));
  const keys = [...threadOf.keys()];
  // Each tie column is looked up by its own index and only those rows are checked and sorted: an
  // OR of the three, or ORDER BY on the items, made SQLite walk the whole collection (10 ms at
  // 27,000 items). CROSS JOIN keeps that order on SQLite, as in ChunkStore.visibleAmong.
  const tie = (column: string, values: readonly string[]) =>
    sql`SELECT id FROM context_items WHERE org_id = ${s.orgId} AND database_id = ${s.databaseId} AND corpus = ${s.corpus} AND collection = ${s.collection} AND ${sql.ref(column)} IN (${sql.join([...values])})`;
  const ties = [tie("thread_id", keys), ...(rootKeys.length > 0 ? [tie("source_id", rootKeys), tie("app_external_id", rootKeys)] : [])];
  const join = s.backend === "sqlite" ? sql`CROSS JOIN` : sql`JOIN`;
  const mates = (
    await sql<GraphItem>`
      WITH tied AS MATERIALIZED (${sql.join(ties, sql` UNION `)})
      SELECT ${sql.join(ITEM_COLUMNS.map((c) => sql.ref(c)))} FROM tied t ${join} context_items i ON i.id = t.id
      WHERE ${visibleItem(s.backend, "i", v)} AND i.id NOT IN (${sql.join(seenIds)})
      ORDER BY i.item_timestamp, i.source_id LIMIT ${limit}`.execute(db)
  ).rows;
  for (const r of mates) {
    const from =
      (r.thread_id !== null ? threadOf.get(r.thread_id) : undefined) ??
      frontier.find((f) => f.thread_id !== null && (f.thread_id === r.source_id || f.thread_id === r.app_external_id));
    if (from !== undefined && from.id !== r.id) out.push({ from, item: r, tie: { kind: "same_thread" } });
  }
  return out;
}

/** Explicit and parent links whose both ends are among `members`. */
export async function linksAmong(
  db: Executor,
  s: TraversalScope,
  members: readonly GraphItem[],
): Promise<Array<{ fromId: string; toSource: string; kind: string; type: string; at: number }>> {
  if (members.length === 0) return [];
  const ids = members.map((m) => m.id);
  const sources = new Set(members.map((m) => m.source_id));
  const rows = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom("context_graph_links")
        .select(["item_id", "target_source_id", "kind", "relation_type", "created_at"])
        .where("org_id", "=", s.orgId)
        .where("item_id", "in", ids.slice(i, i + 500))
        .where("corpus", "=", s.corpus)
        .orderBy("item_id")
        .orderBy("target_source_id")
        .execute()),
    );
  }
  return rows
    .filter((r) => sources.has(r.target_source_id))
    .map((r) => ({ fromId: r.item_id, toSource: r.target_source_id, kind: r.kind, type: r.relation_type, at: Number(r.created_at) }));
}
