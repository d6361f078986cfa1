import type { OrgTenancy } from "../../platform/tenancy.js";
import type { Visibility } from "../items/item-visibility.js";
import type { ChunkRow } from "../items/store.js";
import type { ChunkStore, QueriedItem, RankedItem } from "./chunk-store.js";

export type { ChunkRow };

/** A candidate chunk with what ranking reads of its item. */
export interface Candidate {
  chunk: ChunkRow;
  item: RankedItem;
}

/** A chunk with what the result views show of its item. */
export interface Hydrated {
  chunk: ChunkRow;
  item: QueriedItem;
}

/**
 * Loads candidate chunks with their items, keeping only those the visibility admits
 * (filters, ACL, expiry): retrievers may over-fetch, this is where visibility is final.
 * Key lookups rather than one join: with a join, the planner may walk the scope's items by the
 * predicate's indexed columns instead of probing the few candidate keys.
 */
export async function hydrate(store: ChunkStore, chunkKeys: readonly number[], visible: Visibility): Promise<Map<number, Candidate>> {
  const out = new Map<number, Candidate>();
  if (chunkKeys.length === 0) return out;
  const chunks = await store.chunksByKeys(visible, chunkKeys);
  const items = await store.visibleItems(
    visible,
    chunks.map((c) => c.item_id),
  );
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const c of chunks) {
    const item = byId.get(c.item_id);
    if (item) out.set(c.chunk_key, { chunk: c, item });
  }
  return out;
}

/**
 * The chosen candidates with the items' shown columns, in order. An item deleted since it was
 * ranked is left out.
 */
export async function completed<T extends { h: Candidate }>(store: ChunkStore, org: OrgTenancy, chosen: readonly T[]): Promise<Array<T & { h: Hydrated }>> {
  if (chosen.length === 0) return [];
  const items = new Map((await store.itemsByIds(org, [...new Set(chosen.map((c) => c.h.item.id))])).map((i) => [i.id, i]));
  return chosen.flatMap((c) => {
    const item = items.get(c.h.item.id);
    return item ? [{ ...c, h: { chunk: c.h.chunk, item } }] : [];
  });
}

/** Which of the chunks the visibility admits. */
export async function visibleChunkKeys(store: ChunkStore, chunkKeys: readonly number[], visible: Visibility): Promise<Set<number>> {
  if (chunkKeys.length === 0) return new Set();
  return new Set(await store.visibleAmong(visible, chunkKeys));
}

/** Chunks of the given items (forceful relations, neighbouring context), in item and position order. */
export async function chunksOfItems(store: ChunkStore, org: OrgTenancy, itemIds: readonly string[], perItem: number): Promise<Hydrated[]> {
  if (itemIds.length === 0) return [];
  const items = await store.itemsByIds(org, itemIds);
  const chunks = await store.chunksOfItems(org, itemIds);
  const byId = new Map(items.map((i) => [i.id, i]));
  const taken = new Map<string, number>();
  const out: Hydrated[] = [];
  for (const c of chunks) {
    const n = taken.get(c.item_id) ?? 0;
    const item = byId.get(c.item_id);
    if (!item || n >= perItem) continue;
    taken.set(c.item_id, n + 1);
    out.push({ chunk: c, item });
  }
  return out;
}
