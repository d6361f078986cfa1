import { visibleItem, type Visibility } from "../context/item-visibility.js";
import type { Backend, Executor } from "../store/db.js";
import type { Corpus } from "../store/schema.js";

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
export type Tie = { readonly kind: "relates_to"; readonly type: string } | { readonly kind: "parent" } | { readonly kind: "child" } | { readonly kind: "same_thread" };

export interface Neighbor {
  readonly from: GraphItem;
  readonly item: GraphItem;
  readonly tie: Tie;
}

/** Which items a traversal may see: one graph (corpus of a collection) and the caller's ACL. */
export interface TraversalScope {
  readonly backend: Backend;
  readonly databaseId: string;
  readonly corpus: Corpus;
  readonly collection: string;
  /** Expanded principals, or null for no ACL scoping. */
  readonly principals: readonly string[] | null;
  readonly now: number;
}

const COLUMNS = ["id", "source_id", "title", "app_kind", "app_provider", "app_external_id", "thread_id", "item_timestamp", "created_at"] as const;

export function visibilityOf(s: TraversalScope): Visibility {
  return { databaseId: s.databaseId, collection: s.collection, corpora: [s.corpus], ids: null, metadata: {}, additional: {}, sourceFields: {}, principals: s.principals, now: s.now };
}

const ITEM_COLUMNS = COLUMNS.map((c) => `i.${c}` as const);

/** The visible items with these public ids. */
export async function itemsBySource(db: Executor, s: TraversalScope, sourceIds: readonly string[]): Promise<GraphItem[]> {
  if (sourceIds.length === 0) return [];
  return db.selectFrom("context_items as i").select(ITEM_COLUMNS).where(visibleItem(s.backend, "i", visibilityOf(s))).where("i.source_id", "in", [...sourceIds]).execute();
}

/**
 * Every visible neighbour of the frontier: explicit links both ways (a link keeps its declared
 * type whichever end the traversal starts from), parents, children and thread-mates. At most
 * `limit` rows per tie, in a stable order, so a huge thread cannot flood one step.
 */
export async function neighborsOf(db: Executor, s: TraversalScope, frontier: readonly GraphItem[], limit: number): Promise<Neighbor[]> {
  if (frontier.length === 0) return [];
  const v = visibilityOf(s);
  const byId = new Map(frontier.map((f) => [f.id, f]));
  const bySource = new Map(frontier.map((f) => [f.source_id, f]));
  const out: Neighbor[] = [];
  const ids = [...byId.keys()];
  const sources = [...bySource.keys()];

  const outgoing = await db
    .selectFrom("context_graph_links as l")
    .innerJoin("context_items as i", (j) =>
      j.onRef("i.database_id", "=", "l.database_id").onRef("i.corpus", "=", "l.corpus").onRef("i.collection", "=", "l.collection").onRef("i.source_id", "=", "l.target_source_id"),
    )
    .select([...ITEM_COLUMNS, "l.item_id as from_id", "l.kind as link_kind", "l.relation_type"])
    .where("l.item_id", "in", ids)
    .where(visibleItem(s.backend, "i", v))
    .orderBy("i.source_id")
    .limit(limit)
    .execute();
  for (const r of outgoing) {
    const from = byId.get(r.from_id);
    if (from !== undefined) out.push({ from, item: r, tie: r.link_kind === "parent" ? { kind: "parent" } : { kind: "relates_to", type: r.relation_type } });
  }

  const incoming = await db
    .selectFrom("context_graph_links as l")
    .innerJoin("context_items as i", "i.id", "l.item_id")
    .select([...ITEM_COLUMNS, "l.target_source_id as to_source", "l.kind as link_kind", "l.relation_type"])
    .where("l.database_id", "=", s.databaseId)
    .where("l.corpus", "=", s.corpus)
    .where("l.collection", "=", s.collection)
    .where("l.target_source_id", "in", sources)
    .where(visibleItem(s.backend, "i", v))
    .orderBy("i.source_id")
    .limit(limit)
    .execute();
  for (const r of incoming) {
    const from = bySource.get(r.to_source);
    if (from !== undefined) out.push({ from, item: r, tie: r.link_kind === "parent" ? { kind: "child" } : { kind: "relates_to", type: r.relation_type } });
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
  const mates = await db
    .selectFrom("context_items as i")
    .select(ITEM_COLUMNS)
    .where(visibleItem(s.backend, "i", v))
    .where((eb) =>
      eb.or([
        eb("i.thread_id", "in", keys),
        ...(rootKeys.length > 0 ? [eb("i.source_id", "in", rootKeys), eb("i.app_external_id", "in", rootKeys)] : []),
      ]),
    )
    .orderBy("i.item_timestamp")
    .orderBy("i.source_id")
    .limit(limit)
    .execute();
  for (const r of mates) {
    const from =
      (r.thread_id !== null ? threadOf.get(r.thread_id) : undefined) ??
      frontier.find((f) => f.thread_id !== null && (f.thread_id === r.source_id || f.thread_id === r.app_external_id));
    if (from !== undefined && from.id !== r.id) out.push({ from, item: r, tie: { kind: "same_thread" } });
  }
  return out;
}

/** Explicit and parent links whose both ends are among `members`. */
export async function linksAmong(db: Executor, s: TraversalScope, members: readonly GraphItem[]): Promise<Array<{ fromId: string; toSource: string; kind: string; type: string; at: number }>> {
  if (members.length === 0) return [];
  const ids = members.map((m) => m.id);
  const sources = new Set(members.map((m) => m.source_id));
  const rows = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...(await db
        .selectFrom("context_graph_links")
        .select(["item_id", "target_source_id", "kind", "relation_type", "created_at"])
        .where("item_id", "in", ids.slice(i, i + 500))
        .where("corpus", "=", s.corpus)
        .orderBy("item_id")
        .orderBy("target_source_id")
        .execute()),
    );
  }
  return rows.filter((r) => sources.has(r.target_source_id)).map((r) => ({ fromId: r.item_id, toSource: r.target_source_id, kind: r.kind, type: r.relation_type, at: Number(r.created_at) }));
}

