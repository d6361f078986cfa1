import type { VectorStore } from "./vector-store.js";
import type { Store } from "../../platform/store/db.js";
import type { TermIndexes, TermScope } from "./term-indexes.js";
import { TermStore } from "./term-store.js";

/**
 * Loads the in-process search indexes (BM25 postings; on SQLite also the vector index) of every
 * scope that has chunks, most recently written first, so the first query after a start does not
 * pay seconds for loading them. It stops when `signal` aborts (shutdown) or when the loaded
 * postings reach half of the term indexes' budget, leaving room for the scopes queries ask for.
 * Returns the scopes loaded.
 */
export async function warmUpIndexes(store: Store, terms: TermIndexes, vectors: VectorStore, signal: AbortSignal): Promise<TermScope[]> {
  const stored = new TermStore(store.reader);
  const scopes = await stored.scopesAcrossOrganizations();
  const loaded: TermScope[] = [];
  for (const { scope, lastKey } of scopes) {
    if (signal.aborted || terms.postings >= terms.maxPostings / 2) break;
    await terms.get(scope);
    if (store.backend === "sqlite") {
      const dims = await stored.vectorDims(scope, lastKey);
      if (dims !== undefined) await vectors.index(scope, dims);
    }
    loaded.push(scope);
  }
  return loaded;
}
