import type { OrgTenancy } from "../../platform/tenancy.js";
import type { ChunkStore } from "./chunk-store.js";
import type { Fused } from "./fusion.js";

/**
 * Neighbouring context of hits: the chunks just before and after a chunk in its item, and for a
 * memory's first / last chunk the nearest chunk of the collection's previous / next memory in time
 * (item_timestamp, then source_id): in a conversation the answer is often the turn next to the
 * one that matches the question. Returns, per chunk key asked, its neighbours' chunk keys.
 * Visibility is not checked here: callers hydrate neighbours through the item predicate.
 */
export async function neighbourChunks(store: ChunkStore, org: OrgTenancy, chunkKeys: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (chunkKeys.length === 0) return out;
  const add = (of: number, key: number): void => {
    const list = out.get(of) ?? [];
    if (!list.includes(key) && key !== of) list.push(key);
    out.set(of, list);
  };
  for (const r of await store.neighboursWithinItem(org, chunkKeys)) add(r.of, r.key);
  const edges = await store.memoryEdges(org, chunkKeys);
  const wanted = new Map<string, Array<{ of: number; last: boolean }>>();
  for (const e of edges) {
    if (e.prevId && e.atStart) wanted.set(e.prevId, [...(wanted.get(e.prevId) ?? []), { of: e.of, last: true }]);
    if (e.nextId && e.atEnd) wanted.set(e.nextId, [...(wanted.get(e.nextId) ?? []), { of: e.of, last: false }]);
  }
  if (wanted.size === 0) return out;
  const chunks = await store.chunkPositions(org, [...wanted.keys()]);
  const firstLast = new Map<string, { first: number; last: number }>();
  for (const c of chunks) {
    const seen = firstLast.get(c.itemId);
    firstLast.set(c.itemId, { first: seen ? seen.first : c.chunkKey, last: c.chunkKey });
  }
  for (const [itemId, asks] of wanted) {
    const ends = firstLast.get(itemId);
    if (ends) for (const a of asks) add(a.of, a.last ? ends.last : ends.first);
  }
  return out;
}

/**
 * Lets each of the top hits lend `weight` of its score to its neighbours: a neighbour's score
 * becomes its own plus `weight` times its best neighbouring hit's (so an evidence turn next to a
 * strong match rises, and one absent from every retriever can enter). Order as in `fuse`.
 */
export function spreadToNeighbours(fused: readonly Fused[], neighbours: ReadonlyMap<number, readonly number[]>, weight: number): Fused[] {
  const own = new Map(fused.map((f) => [f.chunkKey, f]));
  const lent = new Map<number, number>();
  for (const [of, keys] of neighbours) {
    const score = own.get(of)?.score ?? 0;
    for (const k of keys) lent.set(k, Math.max(lent.get(k) ?? 0, weight * score));
  }
  const out: Fused[] = fused.map((f) => {
    const extra = lent.get(f.chunkKey) ?? 0;
    return extra > 0 ? { chunkKey: f.chunkKey, score: f.score + extra, parts: { ...f.parts, neighbour: extra } } : f;
  });
  for (const [k, extra] of lent) if (!own.has(k)) out.push({ chunkKey: k, score: extra, parts: { neighbour: extra } });
  return out.sort((a, b) => b.score - a.score || a.chunkKey - b.chunkKey);
}
