import type { RawBuilder, SqlBool } from "kysely";
import { sql } from "kysely";
import type { ItemRow } from "../items/store.js";
import type { Store } from "../../platform/store/db.js";
import type { ContextChunksTable } from "../../platform/store/schema.js";

export type ChunkRow = Omit<ContextChunksTable, "chunk_key"> & { chunk_key: number };

export interface Hydrated {
  chunk: ChunkRow;
  item: ItemRow;
}

/**
 * Loads candidate chunks with their items, keeping only those the item predicate admits
 * (filters, ACL, expiry): retrievers may over-fetch, this is where visibility is final.
 * Key lookups rather than one join: with a join, the planner may walk the scope's items by the
 * predicate's indexed columns instead of probing the few candidate keys.
 */
export async function hydrate(store: Store, chunkKeys: readonly number[], visible: RawBuilder<SqlBool>): Promise<Map<number, Hydrated>> {
  const out = new Map<number, Hydrated>();
  if (chunkKeys.length === 0) return out;
  const chunks = await store.reader
    .selectFrom("context_chunks")
    .selectAll()
    .where("chunk_key", "in", [...chunkKeys])
    .execute();
  const byId = await visibleItems(
    store,
    chunks.map((c) => c.item_id),
    visible,
  );
  for (const c of chunks) {
    const item = byId.get(c.item_id);
    if (item) out.set(Number(c.chunk_key), { chunk: { ...c, chunk_key: Number(c.chunk_key) }, item });
  }
  return out;
}

/** Which of the chunks the item predicate admits, by the same two lookups. */
export async function visibleChunkKeys(store: Store, chunkKeys: readonly number[], visible: RawBuilder<SqlBool>): Promise<Set<number>> {
  if (chunkKeys.length === 0) return new Set();
  const chunks = await store.reader
    .selectFrom("context_chunks")
    .select(["chunk_key", "item_id"])
    .where("chunk_key", "in", [...chunkKeys])
    .execute();
  const items = await visibleItems(
    store,
    chunks.map((c) => c.item_id),
    visible,
  );
  return new Set(chunks.filter((c) => items.has(c.item_id)).map((c) => Number(c.chunk_key)));
}

async function visibleItems(store: Store, ids: readonly string[], visible: RawBuilder<SqlBool>): Promise<Map<string, ItemRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  // MATERIALIZED: the candidates by primary key first, then the predicate on those few rows.
  const rows = await sql<ItemRow>`
    WITH candidates AS MATERIALIZED (SELECT * FROM context_items WHERE id IN (${sql.join(unique)}))
    SELECT i.* FROM candidates i WHERE ${visible}`.execute(store.reader);
  return new Map(rows.rows.map((i) => [i.id, i]));
}

/** Chunks of the given items (forceful relations, neighbouring context), in item and position order. */
export async function chunksOfItems(store: Store, itemIds: readonly string[], perItem: number): Promise<Hydrated[]> {
  if (itemIds.length === 0) return [];
  const items = await store.reader
    .selectFrom("context_items")
    .selectAll()
    .where("id", "in", [...itemIds])
    .execute();
  const chunks = await store.reader
    .selectFrom("context_chunks")
    .selectAll()
    .where("item_id", "in", [...itemIds])
    .orderBy("position")
    .execute();
  const byId = new Map(items.map((i) => [i.id, i]));
  const taken = new Map<string, number>();
  const out: Hydrated[] = [];
  for (const c of chunks) {
    const n = taken.get(c.item_id) ?? 0;
    const item = byId.get(c.item_id);
    if (!item || n >= perItem) continue;
    taken.set(c.item_id, n + 1);
    out.push({ chunk: { ...c, chunk_key: Number(c.chunk_key) }, item });
  }
  return out;
}
