import { sql, type AliasedSelectQueryBuilder } from "kysely";
import type { GraphEntity, GraphRelation } from "../../engines/extraction/index.js";
import { visibleItem } from "../items/visibility-store.js";
import type { Executor } from "../../platform/store/db.js";
import type { EntityNamespace, EntityType } from "../../engines/extraction/graph-types.js";
import { rowScope, type GraphScope } from "./graph-write-store.js";
import { contentScopeOnly } from "../items/item-types.js";
import { statementTemplate } from "../../platform/store/statement-templates.js";
import { visibilityOf, type TraversalScope } from "./traversal-store.js";
import type { WireTriplet } from "./wire.js";

/**
 * The reads of the context graph behind POST /query and GET /context/relations and /subgraph:
 * triplets of visible items, entities by id or name, the entities a chunk mentions. Every query
 * is scoped by the graph (organization, database, corpus, collection) of the traversal scope.
 */

/** Which stored triplets to read; every filter is optional and they combine with AND. */
export interface TripletFilter {
  /** Public id of the one item to read. */
  readonly sourceId?: string;
  readonly kind?: "chunk" | "structural";
  readonly chunkIds?: readonly string[];
  /** Triplets with either end among these entities. */
  readonly entityIds?: readonly string[];
}

export interface StoredTriplet extends WireTriplet {
  readonly key: number;
  readonly itemId: string;
}

type EntityRow = { entity_id: string; name: string; type: string; namespace: string; identifier: string | null; provider: string | null };

function toEntity(row: EntityRow | undefined, id: string): GraphEntity {
  if (row === undefined) return { name: id, type: "REFERENCE", namespace: "references", entity_id: id, identifier: null };
  const entity: GraphEntity = {
    name: row.name,
    type: row.type as EntityType,
    namespace: row.namespace as EntityNamespace,
    entity_id: row.entity_id,
    identifier: row.identifier,
  };
  return row.provider === null ? entity : { ...entity, provider: row.provider };
}

/**
 * Triplets of visible items in key order after `afterKey`, at most `limit`. The key is the
 * paging cursor: rows only ever get new, larger keys, so a cursor stays valid across writes.
 */
export async function readTriplets(db: Executor, s: TraversalScope, filter: TripletFilter, afterKey: number, limit: number): Promise<StoredTriplet[]> {
  if (filter.chunkIds?.length === 0 || filter.entityIds?.length === 0) return [];
  const entityIds = filter.entityIds === undefined ? [] : [...new Set(filter.entityIds)];
  if (entityIds.length > 0 && entityIds.length <= ORDERED_ENTITIES && filter.chunkIds === undefined && filter.sourceId === undefined)
    return renderRows(await withEnds(db, s, entityTripletsQuery(db, s, entityIds, filter.kind, afterKey, limit)).execute());
  let q = visibleTriplets(db, s, filter.kind, afterKey).select(TRIPLET_COLUMNS);
  if (filter.sourceId !== undefined) q = q.where("i.source_id", "=", filter.sourceId);
  // The chunk and entity filters also name their keys through a subquery on their own index.
  // Without statistics SQLite ranked the scope index (three equalities and the key range) above
  // the chunk index, and an OR of two indexed lists above either, and walked the scope: 90-120 ms
  // a read at 300,000 triplets in a collection, 0.25 ms (chunks) and 1.35 ms (entities) this way.
  const chunkIds = filter.chunkIds;
  if (chunkIds !== undefined) q = q.where("t.chunk_id", "in", [...chunkIds]).where("t.triplet_key", "in", tripletKeysWhere(db, s, "chunk_id", chunkIds));
  if (entityIds.length > 0)
    q = q
      .where((eb) => eb.or([eb("t.source_entity_id", "in", entityIds), eb("t.target_entity_id", "in", entityIds)]))
      // UNION ALL: a plain UNION made SQLite read both lists in key order, through the scope index.
      .where("t.triplet_key", "in", tripletKeysWhere(db, s, "source_entity_id", entityIds).unionAll(tripletKeysWhere(db, s, "target_entity_id", entityIds)));
  // With a selective filter, `+ 0` keeps SQLite from walking the collection in key order
  // instead of using that filter's index; a whole-collection page walks the key index.
  const selective = filter.sourceId !== undefined || filter.chunkIds !== undefined || entityIds.length > 0;
  return renderRows(await withEnds(db, s, q.orderBy(selective ? sql`t.triplet_key + 0` : sql`t.triplet_key`).limit(limit)).execute());
}

/** A stored triplet's columns as the reads return them (TripletRow). */
const TRIPLET_COLUMNS = ["t.triplet_key", "t.item_id", "t.chunk_id", "t.source_entity_id", "t.target_entity_id", "t.relations"] as const;

/** The scope's triplets of visible items after `afterKey` (of one kind, if named), joined to their items as `i`. */
function visibleTriplets(db: Executor, s: TraversalScope, kind: TripletFilter["kind"], afterKey: number) {
  let q = db
    .selectFrom("context_graph_triplets as t")
    .innerJoin("context_items as i", "i.id", "t.item_id")
    .where("t.org_id", "=", s.orgId)
    .where("t.database_id", "=", s.databaseId)
    .where("t.corpus", "=", s.corpus)
    .where("t.collection", "=", s.collection)
    .where(visibleItem(s.backend, "i", visibilityOf(s)))
    .where("t.triplet_key", ">", afterKey);
  if (kind !== undefined) q = q.where("t.kind", "=", kind);
  return q;
}

/**
 * Entities named at most this many are read as ordered ranges, one per entity and end (below);
 * a longer list (thinking mode's second hop names up to 50) reads every triplet of them instead.
 */
const ORDERED_ENTITIES = 8;

/**
 * The first `limit` triplets (key order) with either end among `entityIds`. Each entity's
 * triplets as source and as target are read in key order through that end's index (its
 * entries follow the key: SQLite's rowid, PostgreSQL's trailing column, migration 0021) and stop
 * at `limit` visible ones; only those few are merged. Read as one list, every triplet of the
 * entities was read, joined and sorted to keep the first few: a person named in every memory of
 * a conversation has hundreds (0.47 against 0.22 ms on LoCoMo), a user's own name in a large
 * store tens of thousands.
 */
export function entityTripletsQuery(
  db: Executor,
  s: TraversalScope,
  entityIds: readonly string[],
  kind: TripletFilter["kind"],
  afterKey: number,
  limit: number,
) {
  const arm = (column: "t.source_entity_id" | "t.target_entity_id", id: string) =>
    db
      .selectFrom(visibleTriplets(db, s, kind, afterKey).select("t.triplet_key").where(column, "=", id).orderBy("t.triplet_key").limit(limit).as("arm"))
      .select("arm.triplet_key");
  const arms = entityIds.flatMap((id) => [arm("t.source_entity_id", id), arm("t.target_entity_id", id)]);
  const keys = arms.slice(1).reduce((union, next) => union.union(next), arms[0]!);
  return db.selectFrom("context_graph_triplets as t").select(TRIPLET_COLUMNS).where("t.triplet_key", "in", keys).orderBy("t.triplet_key").limit(limit);
}

/** Keys of the scope's triplets whose `column` is one of `values`, read through that column's index. */
function tripletKeysWhere(db: Executor, s: TraversalScope, column: "chunk_id" | "source_entity_id" | "target_entity_id", values: readonly string[]) {
  let q = db
    .selectFrom("context_graph_triplets")
    .select("triplet_key")
    .where("org_id", "=", s.orgId)
    .where(column, "in", [...values]);
  // The chunk index has the chunk id alone; the entity indexes lead with the scope.
  if (column !== "chunk_id") q = q.where("database_id", "=", s.databaseId).where("corpus", "=", s.corpus).where("collection", "=", s.collection);
  return q;
}

type TripletRow = { triplet_key: number; item_id: string; chunk_id: string; source_entity_id: string; target_entity_id: string; relations: string };

/** A triplet row with both ends' stored entities (`s_` the source's, `o_` the target's; null when no longer stored). */
type RowWithEnds = TripletRow & { [K in `${"s" | "o"}_${keyof Omit<EntityRow, "entity_id">}`]: string | null };

/** The join condition that keeps an entity (`alias`) in the scope's graph. */
const inGraph = (alias: "es" | "eo", s: GraphScope) =>
  sql<boolean>`${sql.join(
    Object.entries(rowScope(s)).map(([column, value]) => sql`${sql.ref(`${alias}.${column}`)} = ${value}`),
    sql` and `,
  )}`;

/**
 * A triplet read (`rows`, in key order) with both ends' entities joined, in one statement: the
 * entities were a second statement of every read, and statements, more than their plans, are what a
 * query's graph context costs (session 35).
 */
function withEnds(db: Executor, s: GraphScope, rows: { as(alias: "t"): AliasedSelectQueryBuilder<TripletRow, "t"> }) {
  return db
    .selectFrom(rows.as("t"))
    .leftJoin("context_graph_entities as es", (join) => join.onRef("es.entity_id", "=", "t.source_entity_id").on(inGraph("es", s)))
    .leftJoin("context_graph_entities as eo", (join) => join.onRef("eo.entity_id", "=", "t.target_entity_id").on(inGraph("eo", s)))
    .select(["t.triplet_key", "t.item_id", "t.chunk_id", "t.source_entity_id", "t.target_entity_id", "t.relations"])
    .select(["es.name as s_name", "es.type as s_type", "es.namespace as s_namespace", "es.identifier as s_identifier", "es.provider as s_provider"])
    .select(["eo.name as o_name", "eo.type as o_type", "eo.namespace as o_namespace", "eo.identifier as o_identifier", "eo.provider as o_provider"])
    .orderBy("t.triplet_key");
}

const endOf = (r: RowWithEnds, side: "s" | "o", id: string): GraphEntity => {
  const name = r[`${side}_name`];
  if (name === null) return toEntity(undefined, id);
  return toEntity(
    {
      entity_id: id,
      name,
      type: r[`${side}_type`] ?? "",
      namespace: r[`${side}_namespace`] ?? "",
      identifier: r[`${side}_identifier`],
      provider: r[`${side}_provider`],
    },
    id,
  );
};

function renderRows(rows: readonly RowWithEnds[]): StoredTriplet[] {
  return rows.map((r) => {
    const relations = (JSON.parse(r.relations) as GraphRelation[]).map((rel) => ({
      ...rel,
      source_entity_id: r.source_entity_id,
      target_entity_id: r.target_entity_id,
    }));
    return {
      key: Number(r.triplet_key),
      itemId: r.item_id,
      source: endOf(r, "s", r.source_entity_id),
      target: endOf(r, "o", r.target_entity_id),
      relations,
      chunk_id: r.chunk_id,
    };
  });
}

/**
 * Triplets of one kind recorded by these items (already known visible), in the items' order,
 * at most `limit`. Read through the per-item index: a collection-wide key order would scan.
 */
export async function tripletsOfItems(
  db: Executor,
  s: TraversalScope,
  itemIds: readonly string[],
  kind: "chunk" | "structural",
  limit: number,
): Promise<StoredTriplet[]> {
  const rows: RowWithEnds[] = [];
  for (let i = 0; i < itemIds.length && rows.length < limit; i += 100) {
    const part = await withEnds(
      db,
      s,
      db
        .selectFrom("context_graph_triplets")
        .select(["triplet_key", "item_id", "chunk_id", "source_entity_id", "target_entity_id", "relations"])
        .where("org_id", "=", s.orgId)
        .where("item_id", "in", itemIds.slice(i, i + 100))
        .where("kind", "=", kind),
    ).execute();
    const order = new Map(itemIds.map((id, n) => [id, n]));
    part.sort((a, b) => (order.get(a.item_id) ?? 0) - (order.get(b.item_id) ?? 0) || Number(a.triplet_key) - Number(b.triplet_key));
    rows.push(...part);
  }
  return renderRows(rows.slice(0, limit));
}

/**
 * The chunk triplets of chunks a query has just returned, in key order, at most `limit`. The
 * chunks are the scope's (`RetrievedChunk.collection`) and already visible to the caller (the
 * query's own filters chose them), so the read goes through the chunk index alone, without the
 * scope's key order or the items' visibility join: 0.08 against 0.18 ms a LoCoMo query, alone.
 */
export async function tripletsOfFoundChunks(db: Executor, s: GraphScope, chunkIds: readonly string[], limit: number): Promise<StoredTriplet[]> {
  if (chunkIds.length === 0) return [];
  return renderRows(await foundChunkTriplets.run(db, { scope: contentScopeOnly(s), chunkIds, limit }));
}

/**
 * tripletsOfFoundChunks' statement compiled once per chunk count: Kysely building it (a subquery
 * and two joins) was about a third of what graph_context adds to a fast LoCoMo query.
 */
const foundChunkTriplets = statementTemplate(
  (v: { scope: GraphScope; chunkIds: readonly string[]; limit: number }) => String(v.chunkIds.length),
  (db, v) => foundChunkTripletsQuery(db, v.scope, v.chunkIds, v.limit),
);

/** tripletsOfFoundChunks' statement; `+ 0`, as in readTriplets, keeps the sort from tempting SQLite into the key order. */
export function foundChunkTripletsQuery(db: Executor, s: GraphScope, chunkIds: readonly string[], limit: number) {
  const rows = db
    .selectFrom("context_graph_triplets")
    .select(["triplet_key", "item_id", "chunk_id", "source_entity_id", "target_entity_id", "relations"])
    .where("org_id", "=", s.orgId)
    .where("chunk_id", "in", [...chunkIds])
    .where("kind", "=", "chunk")
    .orderBy(sql`triplet_key + 0`)
    .limit(limit);
  return withEnds(db, s, rows);
}

/** The triplet as sent: without the store's key and item id. */
export const toWire = (t: StoredTriplet): WireTriplet => ({ source: t.source, target: t.target, relations: t.relations, chunk_id: t.chunk_id });

/**
 * Ids of the graph's named (non-SOURCE) entities whose normalised name is one of `nameKeys` or
 * whose id is one of `entityIds`.
 */
export async function namedEntities(db: Executor, s: GraphScope, nameKeys: readonly string[], entityIds: readonly string[]): Promise<string[]> {
  if (nameKeys.length === 0 && entityIds.length === 0) return [];
  const rows = await namedEntityIds.run(db, { scope: contentScopeOnly(s), nameKeys, entityIds });
  return rows.map((r) => r.entity_id);
}

/** namedEntities' statement, compiled once per pair of list lengths (every graph_context query runs it). */
const namedEntityIds = statementTemplate(
  (v: { scope: GraphScope; nameKeys: readonly string[]; entityIds: readonly string[] }) => `${v.nameKeys.length}:${v.entityIds.length}`,
  (db, v) =>
    db
      .selectFrom("context_graph_entities")
      .select("entity_id")
      .where((eb) => eb.and(rowScope(v.scope)))
      .where("type", "<>", "SOURCE")
      .where((eb) =>
        eb.or([...(v.nameKeys.length > 0 ? [eb("name_key", "in", v.nameKeys)] : []), ...(v.entityIds.length > 0 ? [eb("entity_id", "in", v.entityIds)] : [])]),
      ),
);

/** Ids of the entities one chunk mentions (in the graph's organization). */
export async function entitiesMentionedIn(db: Executor, s: TraversalScope, chunkId: string): Promise<string[]> {
  const rows = await db.selectFrom("context_graph_mentions").select("entity_id").where("org_id", "=", s.orgId).where("chunk_id", "=", chunkId).execute();
  return rows.map((r) => r.entity_id);
}
