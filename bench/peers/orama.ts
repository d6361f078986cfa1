/**
 * Orama (@orama/orama, in memory): one database per corpus, schema {doc, text, embedding: vector[512]},
 * full text searched on `text` only (ids are not text). Hybrid search with its defaults: BM25 on the
 * default English tokenizer, weights 0.5 / 0.5 after its score normalisation, and the vector side's
 * default similarity threshold 0.8. Because that threshold drops most of our encoder's matches, a
 * second, tuned row sets similarity 0 (every vector result kept).
 */
import { create, insertMultiple, search } from "@orama/orama";
import type { PeerSystem, Question } from "./types.js";

const SCHEMA = { doc: "string", text: "string", embedding: "vector[512]" } as const;
type Db = ReturnType<typeof create<typeof SCHEMA>>;

export async function createOrama(): Promise<PeerSystem> {
  const dbs = new Map<string, Db>();
  return {
    modes: ["hybrid (defaults)", "hybrid (similarity 0, tuned)"],
    embedsQueries: false,
    async index(data) {
      for (const c of data.corpora) {
        const db = create({ schema: SCHEMA });
        await insertMultiple(
          db,
          c.items.map((i) => ({ id: i.id, doc: i.doc, text: i.text, embedding: Array.from(i.vector) })),
        );
        dbs.set(c.name, db);
      }
    },
    async search(mode: string, q: Question, depth: number) {
      const db = dbs.get(q.corpus);
      if (!db) throw new Error(`no Orama database ${q.corpus}`);
      const result = await search(db, {
        mode: "hybrid",
        term: q.text,
        properties: ["text"],
        vector: { value: Array.from(q.vector), property: "embedding" },
        limit: depth,
        ...(mode.includes("tuned") ? { similarity: 0 } : {}),
      });
      return result.hits.map((h) => h.document.doc);
    },
    async close() {
      dbs.clear();
    },
  };
}
