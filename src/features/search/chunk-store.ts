import { sql } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import type { Visibility } from "../items/item-visibility.js";
import { CHUNK_COLUMNS, type ChunkRow, type ItemRow } from "../items/store.js";
import { visibilityTemplate, visibleItem } from "../items/visibility-store.js";
import { mergedSpans } from "./episode-context.js";
import type { EveryKeyListed } from "../../platform/util/every-key-listed.js";
import { rawStatement, statementTemplate } from "../../platform/store/statement-templates.js";

/**
 * Every column of an item but `content`, the item's whole text (a document, a page, a thread),
 * which no result view shows (a result shows its chunks): the visibility predicate reads these.
 */
type ItemWithoutContent = Omit<ItemRow, "content">;

const ITEM_COLUMNS_BUT_CONTENT = [
  "id",
  "org_id",
  "database_id",
  "collection",
  "corpus",
  "source_id",
  "generation",
  "origin",
  "title",
  "type",
  "description",
  "note",
  "url",
  "item_timestamp",
  "metadata",
  "additional_metadata",
  "relations",
  "acl",
  "app_kind",
  "app_provider",
  "app_external_id",
  "thread_id",
  "parent_id",
  "file_name",
  "file_mime",
  "content_hash",
  "blob_id",
  "infer",
  "inferred_content",
  "custom_instructions",
  "user_name",
  "expires_at",
  "status",
  "error_code",
  "message",
  "chunk_count",
  "created_at",
  "updated_at",
  "connector_id",
] as const satisfies ReadonlyArray<keyof ItemWithoutContent>;
// A column added to the items table must be listed above (filters may name it).
const everyColumnListed: EveryKeyListed<ItemWithoutContent, (typeof ITEM_COLUMNS_BUT_CONTENT)[number]> = true;
void everyColumnListed;

/**
 * What ranking reads of each candidate's item (identity, corpus, title, time, speaker). Turning a column
 * into a JS value is most of a hydration read's cost: the 60 candidates of a LoCoMo query with
 * every column took 0.87 ms, with these 0.24 (hot, SQLite); the shown items are read after.
 */
const RANKED_ITEM_COLUMNS = ["id", "corpus", "source_id", "title", "item_timestamp", "user_name", "created_at"] as const;
export type RankedItem = Pick<ItemRow, (typeof RANKED_ITEM_COLUMNS)[number]>;

/** What the result views (chunks, sources, extras) show of an item. */
const QUERIED_ITEM_COLUMNS = [
  ...RANKED_ITEM_COLUMNS,
  "collection",
  "type",
  "description",
  "url",
  "metadata",
  "additional_metadata",
  "relations",
  "app_kind",
  "app_provider",
  "app_external_id",
  "thread_id",
  "inferred_content",
  "updated_at",
] as const satisfies ReadonlyArray<keyof ItemRow>;
export type QueriedItem = Pick<ItemRow, (typeof QUERIED_ITEM_COLUMNS)[number]>;

// Every query's key reads, compiled once per list length (statement-templates.ts): Kysely building
// them was about a third of a millisecond of each fast LoCoMo query's request thread.
type Keys<K> = { keys: readonly K[] };
type KeyList<K> = Keys<K> & { orgId: string };
const listShape = (v: Keys<unknown>): string => String(v.keys.length);
const chunksByKey = statementTemplate(listShape, (db, v: KeyList<number>) =>
  db.selectFrom("context_chunks").select(CHUNK_COLUMNS).where("org_id", "=", v.orgId).where("chunk_key", "in", v.keys),
);
const shownItems = statementTemplate(listShape, (db, v: KeyList<string>) =>
  db.selectFrom("context_items").select(QUERIED_ITEM_COLUMNS).where("org_id", "=", v.orgId).where("id", "in", v.keys),
);
const positionsOfItems = statementTemplate(listShape, (db, v: KeyList<string>) =>
  db
    .selectFrom("context_chunks")
    .select(["chunk_key", "item_id", "position"])
    .where("org_id", "=", v.orgId)
    .where("item_id", "in", v.keys)
    .orderBy("item_id")
    .orderBy("position"),
);

// The statements that carry the query's visibility, compiled once per shape when it has no
// filters (visibility-store.ts): Kysely building them was about a third of a millisecond of a
// fast LoCoMo query's request thread.
const visibleChunks = visibilityTemplate(listShape, (db, backend, v, x: Keys<number>) => {
  const sqlite = backend === "sqlite";
  const join = sqlite ? sql`CROSS JOIN` : sql`JOIN`;
  const chunks = sqlite ? sql`context_chunks INDEXED BY context_chunks_key_item` : sql`context_chunks`;
  return rawStatement(
    db,
    sql<{ chunk_key: number }>`
      WITH candidates AS MATERIALIZED (SELECT chunk_key, item_id FROM ${chunks} WHERE org_id = ${v.orgId} AND chunk_key IN (${sql.join([...x.keys])}))
      SELECT c.chunk_key AS chunk_key FROM candidates c ${join} context_items i ON i.id = c.item_id
      WHERE ${visibleItem(backend, "i", v)}`,
  );
});
// MATERIALIZED: the candidates by primary key first, then the predicate on those few rows.
const visibleRankedItems = visibilityTemplate(listShape, (db, backend, v, x: Keys<string>) =>
  rawStatement(
    db,
    sql<RankedItem>`
      WITH candidates AS MATERIALIZED (SELECT ${sql.join(ITEM_COLUMNS_BUT_CONTENT.map((c) => sql.ref(c)))} FROM context_items WHERE org_id = ${v.orgId} AND id IN (${sql.join([...x.keys])}))
      SELECT ${sql.join(RANKED_ITEM_COLUMNS.map((c) => sql.ref(`i.${c}`)))} FROM candidates i WHERE ${visibleItem(backend, "i", v)}`,
  ),
);

const chunkContents = statementTemplate(listShape, (db, v: KeyList<number>) =>
  db.selectFrom("context_chunks").select(["chunk_key", "content"]).where("org_id", "=", v.orgId).where("chunk_key", "in", v.keys),
);
const neighbourKeys = statementTemplate(listShape, (db, v: KeyList<number>) =>
  rawStatement(
    db,
    sql<{ of_key: number; key: number }>`
      SELECT c.chunk_key AS of_key, n.chunk_key AS key
      FROM context_chunks c JOIN context_chunks n ON n.item_id = c.item_id AND (n.position = c.position - 1 OR n.position = c.position + 1)
      WHERE c.org_id = ${v.orgId} AND c.chunk_key IN (${sql.join([...v.keys])})`,
  ),
);

// A row-value comparison, which both backends seek in the timeline index: the same condition
// spelled with OR made SQLite scan the collection (68 ms for 20 chunks at 13,000 memories; 0.7 ms).
const adjacent = (direction: "prev" | "next") => {
  const before = direction === "prev";
  const cmp = before ? sql`<` : sql`>`;
  const order = before ? sql`DESC` : sql`ASC`;
  return sql<string | null>`(SELECT p.id FROM context_items p
        WHERE p.org_id = i.org_id AND p.database_id = i.database_id AND p.corpus = i.corpus AND p.collection = i.collection
          AND (p.item_timestamp, p.source_id) ${cmp} (i.item_timestamp, i.source_id)
        ORDER BY p.item_timestamp ${order}, p.source_id ${order} LIMIT 1)`;
};
const memoryEdgeRows = statementTemplate(listShape, (db, v: KeyList<number>) =>
  rawStatement(
    db,
    sql<{ of_key: number; prev_id: string | null; next_id: string | null; at_start: number; at_end: number }>`
      SELECT c.chunk_key AS of_key, ${adjacent("prev")} AS prev_id, ${adjacent("next")} AS next_id,
        CASE WHEN c.position = 0 THEN 1 ELSE 0 END AS at_start,
        CASE WHEN NOT EXISTS (SELECT 1 FROM context_chunks l WHERE l.item_id = c.item_id AND l.position > c.position) THEN 1 ELSE 0 END AS at_end
      FROM context_chunks c JOIN context_items i ON i.id = c.item_id
      WHERE c.org_id = ${v.orgId} AND c.chunk_key IN (${sql.join([...v.keys])}) AND i.corpus = 'memory' AND i.item_timestamp IS NOT NULL`,
  ),
);

/** The memories (with a time) of the seed chunks: where their episodes are. */
const episodeSeeds = statementTemplate(listShape, (db, v: KeyList<number>) =>
  rawStatement(
    db,
    sql<{ database_id: string; corpus: string; collection: string; ts: number }>`
      SELECT i.database_id AS database_id, i.corpus AS corpus, i.collection AS collection, i.item_timestamp AS ts
      FROM context_chunks c JOIN context_items i ON i.id = c.item_id
      WHERE c.org_id = ${v.orgId} AND c.chunk_key IN (${sql.join([...v.keys])}) AND i.corpus = 'memory' AND i.item_timestamp IS NOT NULL`,
  ),
);

type Span = { database_id: string; corpus: string; collection: string; lo: number; hi: number };
/**
 * The visible memory chunks in the spans (collection and time range), at most `limit`, unordered.
 * PostgreSQL scanned each span's whole collection and every chunk of the scope (a bitmap scan
 * filtered by time, then a hash join: 12.8 ms a query on LoCoMo); LATERAL makes each span a
 * range of the timeline index and each member's chunks a lookup. SQLite has no LATERAL and
 * plans the join as those seeks already. The bounds are values, not arithmetic: under
 * row-level security PostgreSQL keeps a condition holding arithmetic (not leakproof) out of
 * the index scan, and scanned the collection (726 ms a query at 100,000 memories).
 */
const membersOfSpans = visibilityTemplate(
  (x: { spans: readonly Span[]; limit: number }) => String(x.spans.length),
  (db, backend, v, x) => {
    const spanRows = sql.join(
      x.spans.map((s) =>
        backend === "postgres"
          ? sql`(${s.database_id}::text, ${s.corpus}::text, ${s.collection}::text, ${s.lo}::bigint, ${s.hi}::bigint)`
          : sql`(${s.database_id}, ${s.corpus}, ${s.collection}, ${s.lo}, ${s.hi})`,
      ),
    );
    const near = sql`p.database_id = s.database_id AND p.corpus = s.corpus AND p.collection = s.collection
          AND p.item_timestamp >= s.lo AND p.item_timestamp <= s.hi AND ${visibleItem(backend, "p", v)}`;
    type Member = { chunk_key: number; collection: string; ts: number; source_id: string; position: number };
    return rawStatement(
      db,
      backend === "postgres"
        ? sql<Member>`
      SELECT ch.chunk_key AS chunk_key, m.collection AS collection, m.item_timestamp AS ts, m.source_id AS source_id, ch.position AS position
      FROM (VALUES ${spanRows}) AS s(database_id, corpus, collection, lo, hi)
      CROSS JOIN LATERAL (SELECT p.id, p.collection, p.item_timestamp, p.source_id FROM context_items p WHERE ${near}
        ORDER BY p.item_timestamp LIMIT ${x.limit}) m
      CROSS JOIN LATERAL (SELECT c.chunk_key, c.position FROM context_chunks c WHERE c.item_id = m.id) ch
      LIMIT ${x.limit}`
        : sql<Member>`
      WITH s(database_id, corpus, collection, lo, hi) AS (VALUES ${spanRows})
      SELECT ch.chunk_key AS chunk_key, p.collection AS collection, p.item_timestamp AS ts, p.source_id AS source_id, ch.position AS position
      FROM s JOIN context_items p ON ${near} JOIN context_chunks ch ON ch.item_id = p.id
      LIMIT ${x.limit}`,
    );
  },
);

/**
 * The reads of the query path over chunks and their items: hydration, visibility checks,
 * neighbouring chunks, phrase candidates. Every read is scoped by the organization; chunk keys
 * are global, so a key of another organization finds nothing. Latency-critical: key lookups
 * rather than joins where the planner could otherwise walk a scope's items.
 */
export class ChunkStore {
  constructor(
    private readonly db: Executor,
    private readonly backend: Backend,
  ) {}

  async chunksByKeys(org: OrgTenancy, chunkKeys: readonly number[]): Promise<ChunkRow[]> {
    const rows = await chunksByKey.run(this.db, { orgId: org.orgId, keys: chunkKeys });
    return rows.map((c) => ({ ...c, chunk_key: Number(c.chunk_key) }));
  }

  /**
   * Those of the chunks whose item the visibility admits, in one statement reading only the columns
   * it needs: the candidates by primary key first (MATERIALIZED), then each one's item by its
   * primary key (SQLite's CROSS JOIN keeps that order), then the predicate. The two lookups it
   * replaced, the second reading whole item rows, took 3.8 ms for 110 candidates; this takes 0.9.
   * Both lookups read covering indexes (migration 0015), not the rows: SQLite would otherwise
   * probe the chunks by rowid, reading each chunk's content with it (1.23 to 0.60 ms).
   */
  async visibleAmong(v: Visibility, chunkKeys: readonly number[]): Promise<number[]> {
    if (chunkKeys.length === 0) return [];
    const rows = await visibleChunks.run(this.db, this.backend, v, { keys: chunkKeys });
    return rows.map((r) => Number(r.chunk_key));
  }

  /** Those of the items (by internal id) the visibility admits, with what ranking reads of them. */
  async visibleItems(v: Visibility, ids: readonly string[]): Promise<RankedItem[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return visibleRankedItems.run(this.db, this.backend, v, { keys: unique });
  }

  /** Up to `limit` keys of the visible chunks of one corpus of the database. */
  async visibleChunkKeys(v: Visibility, corpus: Corpus, limit: number): Promise<number[]> {
    const rows = await sql<{ chunk_key: number }>`
      SELECT c.chunk_key AS chunk_key FROM context_chunks c JOIN context_items i ON i.id = c.item_id
      WHERE c.org_id = ${v.orgId} AND c.database_id = ${v.databaseId} AND c.corpus = ${corpus} AND ${visibleItem(this.backend, "i", v)}
      LIMIT ${limit}`.execute(this.db);
    return rows.rows.map((r) => Number(r.chunk_key));
  }

  /**
   * The visible memory chunks within `spanMs` of each seed chunk's memory in time, in the seed's
   * collection, in timeline order (collection, item_timestamp, source_id, position). At most
   * `limit` are read, unordered, and sorted here: a collection written all at once (every
   * timestamp within the hour) costs `limit` rows, not the collection. One statement: a bounded
   * statement per seed and side measured 4.2 ms (1.9 of them preparing) against 1.0 ms for this.
   */
  async episodeMembers(
    v: Visibility,
    seedKeys: readonly number[],
    spanMs: number,
    limit: number,
  ): Promise<Array<{ chunkKey: number; collection: string; timestamp: number }>> {
    if (seedKeys.length === 0) return [];
    const seeds = await episodeSeeds.run(this.db, { orgId: v.orgId, keys: seedKeys });
    // The seeds' spans, overlapping ones merged: a conversation's hits crowd into a few sessions,
    // and each span read alone read the same turns again (then DISTINCT): on LoCoMo 20 seeds make
    // 8 spans, and the read took 0.44 instead of 0.68 ms (hot). Merged spans are disjoint, so no
    // item is read twice.
    const spans = mergedSpans(
      seeds.map((r) => ({ database_id: r.database_id, corpus: r.corpus, collection: r.collection, ts: Number(r.ts) })),
      spanMs,
    );
    if (spans.length === 0) return [];
    const rows = await membersOfSpans.run(this.db, this.backend, v, { spans, limit });
    const unique = new Map(rows.map((r) => [Number(r.chunk_key), r]));
    const members = [...unique.values()].map((r) => ({
      chunkKey: Number(r.chunk_key),
      collection: r.collection,
      timestamp: Number(r.ts),
      sourceId: r.source_id,
      position: Number(r.position),
    }));
    members.sort(
      (a, b) =>
        (a.collection < b.collection ? -1 : a.collection > b.collection ? 1 : 0) ||
        a.timestamp - b.timestamp ||
        (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0) ||
        a.position - b.position,
    );
    return members.map((m) => ({ chunkKey: m.chunkKey, collection: m.collection, timestamp: m.timestamp }));
  }

  /** Internal and public ids of the visible items (the visibility names their public ids). */
  async visibleSources(v: Visibility): Promise<Array<{ id: string; source_id: string }>> {
    return this.db
      .selectFrom("context_items as i")
      .select(["i.id", "i.source_id"])
      .where(visibleItem(this.backend, "i", v))
      .execute();
  }

  async contents(org: OrgTenancy, chunkKeys: readonly number[]): Promise<Array<{ chunkKey: number; content: string }>> {
    if (chunkKeys.length === 0) return [];
    const rows = await chunkContents.run(this.db, { orgId: org.orgId, keys: chunkKeys });
    return rows.map((r) => ({ chunkKey: Number(r.chunk_key), content: r.content }));
  }

  async itemsByIds(org: OrgTenancy, ids: readonly string[]): Promise<QueriedItem[]> {
    return shownItems.run(this.db, { orgId: org.orgId, keys: ids });
  }

  /** The chunks of the items, in position order. */
  async chunksOfItems(org: OrgTenancy, itemIds: readonly string[]): Promise<ChunkRow[]> {
    const rows = await this.db
      .selectFrom("context_chunks")
      .select(CHUNK_COLUMNS)
      .where("org_id", "=", org.orgId)
      .where("item_id", "in", [...itemIds])
      .orderBy("position")
      .execute();
    return rows.map((c) => ({ ...c, chunk_key: Number(c.chunk_key) }));
  }

  /** The chunks just before and after each chunk in its item. */
  async neighboursWithinItem(org: OrgTenancy, chunkKeys: readonly number[]): Promise<Array<{ of: number; key: number }>> {
    if (chunkKeys.length === 0) return [];
    const within = await neighbourKeys.run(this.db, { orgId: org.orgId, keys: chunkKeys });
    return within.map((r) => ({ of: Number(r.of_key), key: Number(r.key) }));
  }

  /**
   * For each memory chunk among the keys: the collection's previous and next memory in time
   * (item_timestamp, then source_id), and whether the chunk is its item's first / last.
   */
  async memoryEdges(
    org: OrgTenancy,
    chunkKeys: readonly number[],
  ): Promise<Array<{ of: number; prevId: string | null; nextId: string | null; atStart: boolean; atEnd: boolean }>> {
    if (chunkKeys.length === 0) return [];
    const edges = await memoryEdgeRows.run(this.db, { orgId: org.orgId, keys: chunkKeys });
    return edges.map((e) => ({
      of: Number(e.of_key),
      prevId: e.prev_id,
      nextId: e.next_id,
      atStart: Number(e.at_start) === 1,
      atEnd: Number(e.at_end) === 1,
    }));
  }

  /** Chunk keys of the items in item and position order. */
  async chunkPositions(org: OrgTenancy, itemIds: readonly string[]): Promise<Array<{ chunkKey: number; itemId: string }>> {
    const rows = await positionsOfItems.run(this.db, { orgId: org.orgId, keys: itemIds });
    return rows.map((r) => ({ chunkKey: Number(r.chunk_key), itemId: r.item_id }));
  }
}
