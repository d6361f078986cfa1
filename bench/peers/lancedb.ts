/**
 * LanceDB (@lancedb/lancedb, embedded, on a temporary directory): one table per corpus with our
 * vectors, a full-text index with `Index.fts()` defaults, no vector index (exact search, LanceDB's
 * default without createIndex on the vector column; distance L2 = cosine order on our unit vectors).
 * Modes: vector, full-text (BM25) and hybrid, fused by RRFReranker (LanceDB's documented hybrid
 * reranker, its default k = 60).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import type { PeerSystem, Question } from "./types.js";

export async function createLanceDb(): Promise<PeerSystem> {
  const dir = mkdtempSync(join(tmpdir(), "peers-lancedb-"));
  const db = await lancedb.connect(dir);
  const tables = new Map<string, lancedb.Table>();
  const reranker = await lancedb.rerankers.RRFReranker.create();
  const docs = (rows: unknown[]): string[] => rows.map((r) => String((r as { doc: unknown }).doc));

  return {
    modes: ["vector", "full-text", "hybrid (RRF)"],
    embedsQueries: false,
    async index(data) {
      for (const c of data.corpora) {
        const rows = c.items.map((i) => ({ id: i.id, doc: i.doc, text: i.text, vector: Array.from(i.vector) }));
        const table = await db.createTable(c.name, rows);
        await table.createIndex("text", { config: lancedb.Index.fts() });
        tables.set(c.name, table);
      }
    },
    async search(mode: string, q: Question, depth: number) {
      const table = tables.get(q.corpus);
      if (!table) throw new Error(`no table ${q.corpus}`);
      if (mode === "vector") return docs(await table.query().nearestTo(q.vector).select(["doc"]).limit(depth).toArray());
      if (mode === "full-text") return docs(await table.query().fullTextSearch(q.text).select(["doc"]).limit(depth).toArray());
      return docs(await table.query().nearestTo(q.vector).fullTextSearch(q.text).rerank(reranker).select(["doc"]).limit(depth).toArray());
    },
    async close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
