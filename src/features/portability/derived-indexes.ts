import { join } from "node:path";
import type { Store } from "../../platform/store/db.js";
import { VectorStore } from "../search/vector-store.js";
import { analyzeTables, vectorSizes } from "./portability-store.js";

/**
 * Re-creates on the target what the source derived from its rows rather than stored as rows.
 * PostgreSQL: the HNSW index per vector size (created now, after the rows committed, so the
 * first query does not build it), and the tables' statistics. SQLite: nothing to do here; the service rebuilds each
 * collection's vector index file from the rows on its first use (a missing file is rebuilt), and
 * the BM25 term indexes live in memory and load from the postings at start. Returns the sizes.
 */
export async function recreateDerivedIndexes(store: Store, dataDir: string): Promise<number[]> {
  const sizes = await vectorSizes(store.db);
  const vectors = new VectorStore(store, join(dataDir, "indexes"));
  for (const dims of sizes) await vectors.prepare(dims);
  // The planner's statistics of the rows just copied, as after any bulk load: until autovacuum
  // came by, a query on the moved database took 130-145 ms instead of about 30.
  if (store.backend === "postgres") await store.asOwner(analyzeTables);
  return sizes;
}
