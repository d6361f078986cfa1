/**
 * MiniSearch (minisearch 7, in memory) as the plain BM25 library: one index per corpus on `text`,
 * its defaults (its own tokenizer, no stemming, BM25+ with k 1.2, b 0.7, d 0.5, OR of the terms,
 * no prefix or fuzzy match). Keyword only: it receives no vectors.
 */
import MiniSearch from "minisearch";
import type { PeerSystem, Question } from "./types.js";

export async function createMiniSearch(): Promise<PeerSystem> {
  const indexes = new Map<string, MiniSearch>();
  return {
    modes: ["BM25"],
    embedsQueries: false,
    async index(data) {
      for (const c of data.corpora) {
        const index = new MiniSearch({ fields: ["text"], storeFields: ["doc"] });
        index.addAll(c.items.map((i) => ({ id: i.id, doc: i.doc, text: i.text })));
        indexes.set(c.name, index);
      }
    },
    async search(_mode: string, q: Question, depth: number) {
      const index = indexes.get(q.corpus);
      if (!index) throw new Error(`no MiniSearch index ${q.corpus}`);
      return index
        .search(q.text)
        .slice(0, depth)
        .map((r) => String(r.doc));
    },
    async close() {
      indexes.clear();
    },
  };
}
