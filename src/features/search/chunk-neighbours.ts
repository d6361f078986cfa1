import { sql } from "kysely";
import type { Fused } from "./fusion.js";
import type { Store } from "../../platform/store/db.js";

/**
 * Neighbouring context of hits: the chunks just before and after a chunk in its item, and for a
 * memory's first / last chunk the nearest chunk of the collection's previous / next memory in time
 * (item_timestamp, then source_id): in a conversation the answer is often the turn next to the
 * one that matches the question. Returns, per chunk key asked, its neighbours' chunk keys.
 * Visibility is not checked here: callers hydrate neighbours through the item predicate.
 */
export async function neighbourChunks(store: Store, chunkKeys: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (chunkKeys.length === 0) return out;
  const keys = sql.join([...chunkKeys]);
  const add = (of: number, key: number): void => {
    const list = out.get(of) ?? [];
    if (!list.includes(key) && key !== of) list.push(key);
    out.set(of, list);
  };
  const within = await sql<{ of_key: number; key: number }>`
    SELECT c.chunk_key AS of_key, n.chunk_key AS key
    FROM context_chunks c JOIN context_chunks n ON n.item_id = c.item_id AND (n.position = c.position - 1 OR n.position = c.position + 1)
    WHERE c.chunk_key IN (${keys})`.execute(store.reader);
  for (const r of within.rows) add(Number(r.of_key), Number(r.key));

  const adjacent = (direction: "prev" | "next") => {
    const before = direction === "prev";
    const cmp = before ? sql`<` : sql`>`;
    const order = before ? sql`DESC` : sql`ASC`;
    return sql<string | null>`(SELECT p.id FROM context_items p
      WHERE p.database_id = i.database_id AND p.corpus = i.corpus AND p.collection = i.collection
        AND (p.item_timestamp ${cmp} i.item_timestamp OR (p.item_timestamp = i.item_timestamp AND p.source_id ${cmp} i.source_id))
      ORDER BY p.item_timestamp ${order}, p.source_id ${order} LIMIT 1)`;
  };
  const edges = await sql<{ of_key: number; prev_id: string | null; next_id: string | null; at_start: number; at_end: number }>`
    SELECT c.chunk_key AS of_key, ${adjacent("prev")} AS prev_id, ${adjacent("next")} AS next_id,
      CASE WHEN c.position = 0 THEN 1 ELSE 0 END AS at_start,
      CASE WHEN NOT EXISTS (SELECT 1 FROM context_chunks l WHERE l.item_id = c.item_id AND l.position > c.position) THEN 1 ELSE 0 END AS at_end
    FROM context_chunks c JOIN context_items i ON i.id = c.item_id
    WHERE c.chunk_key IN (${keys}) AND i.corpus = 'memory' AND i.item_timestamp IS NOT NULL`.execute(store.reader);
  const wanted = new Map<string, Array<{ of: number; last: boolean }>>();
  for (const e of edges.rows) {
    if (e.prev_id && Number(e.at_start) === 1) wanted.set(e.prev_id, [...(wanted.get(e.prev_id) ?? []), { of: Number(e.of_key), last: true }]);
    if (e.next_id && Number(e.at_end) === 1) wanted.set(e.next_id, [...(wanted.get(e.next_id) ?? []), { of: Number(e.of_key), last: false }]);
  }
  if (wanted.size === 0) return out;
  const chunks = await store.reader
    .selectFrom("context_chunks")
    .select(["chunk_key", "item_id", "position"])
    .where("item_id", "in", [...wanted.keys()])
    .orderBy("item_id")
    .orderBy("position")
    .execute();
  const firstLast = new Map<string, { first: number; last: number }>();
  for (const c of chunks) {
    const seen = firstLast.get(c.item_id);
    firstLast.set(c.item_id, { first: seen ? seen.first : Number(c.chunk_key), last: Number(c.chunk_key) });
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
