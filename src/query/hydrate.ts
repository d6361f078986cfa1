import type { RawBuilder, SqlBool } from "kysely";
import { sql } from "kysely";
import type { ItemRow } from "../context/item-store.js";
import type { Store } from "../store/db.js";
import type { ContextChunksTable } from "../store/schema.js";

export type ChunkRow = Omit<ContextChunksTable, "chunk_key"> & { chunk_key: number };

export interface Hydrated {
  chunk: ChunkRow;
  item: ItemRow;
}

/**
 * Loads candidate chunks with their items, keeping only those the item predicate admits
 * (filters, ACL, expiry): retrievers may over-fetch, this is where visibility is final.
 */
export async function hydrate(store: Store, chunkKeys: readonly number[], visible: RawBuilder<SqlBool>): Promise<Map<number, Hydrated>> {
  const out = new Map<number, Hydrated>();
  if (chunkKeys.length === 0) return out;
  const chunks = await sql<ChunkRow>`
    SELECT c.* FROM context_chunks c JOIN context_items i ON i.id = c.item_id
    WHERE c.chunk_key IN (${sql.join([...chunkKeys])}) AND ${visible}`.execute(store.db);
  const itemIds = [...new Set(chunks.rows.map((c) => c.item_id))];
  const items = itemIds.length
    ? await store.db.selectFrom("context_items").selectAll().where("id", "in", itemIds).execute()
    : [];
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const c of chunks.rows) {
    const item = byId.get(c.item_id);
    if (item) out.set(Number(c.chunk_key), { chunk: { ...c, chunk_key: Number(c.chunk_key) }, item });
  }
  return out;
}

/** Chunks of the given items (forceful relations, neighbouring context), in item and position order. */
export async function chunksOfItems(store: Store, itemIds: readonly string[], perItem: number): Promise<Hydrated[]> {
  if (itemIds.length === 0) return [];
  const items = await store.db.selectFrom("context_items").selectAll().where("id", "in", [...itemIds]).execute();
  const chunks = await store.db.selectFrom("context_chunks").selectAll().where("item_id", "in", [...itemIds]).orderBy("position").execute();
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
