import { join } from "node:path";
import type { Store } from "../../platform/store/db.js";
import { VectorStore } from "../search/vector-store.js";
import { vectorSizes } from "./portability-store.js";

/**
 * Re-creates on the target what the source derived from its rows rather than stored as rows.
 * PostgreSQL: the HNSW index per vector size (created now, after the rows committed, so the
 * first query does not build it). SQLite: nothing to do here; the service rebuilds each
 * collection's vector index file from the rows on its first use (a missing file is rebuilt), and
 * the BM25 term indexes live in memory and load from the postings at start. Returns the sizes.
 */
export async function recreateDerivedIndexes(store: Store, dataDir: string): Promise<number[]> {
  const sizes = await vectorSizes(store.db);
  const vectors = new VectorStore(store, join(dataDir, "indexes"));
  for (const dims of sizes) await vectors.prepare(dims);
  return sizes;
}
