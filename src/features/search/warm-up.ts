import type { VectorStore } from "./vector-store.js";
import type { Store } from "../../platform/store/db.js";
import type { TermIndexes, TermScope } from "./term-indexes.js";

/**
 * Loads the in-process search indexes (BM25 postings; on SQLite also the vector index) of every
 * scope that has chunks, most recently written first, so the first query after a start does not
 * pay seconds for loading them. It stops when `signal` aborts (shutdown) or when the loaded
 * postings reach half of the term indexes' budget, leaving room for the scopes queries ask for.
 * Returns the scopes loaded.
 */
export async function warmUpIndexes(store: Store, terms: TermIndexes, vectors: VectorStore, signal: AbortSignal): Promise<TermScope[]> {
  const scopes = await store.reader
    .selectFrom("context_chunks")
    .select(["database_id", "corpus", "collection", (eb) => eb.fn.max("chunk_key").as("last")])
    .groupBy(["database_id", "corpus", "collection"])
    .orderBy("last", "desc")
    .execute();
  const loaded: TermScope[] = [];
  for (const row of scopes) {
    if (signal.aborted || terms.postings >= terms.maxPostings / 2) break;
    const scope: TermScope = { databaseId: row.database_id, corpus: row.corpus, collection: row.collection };
    await terms.get(scope);
    if (store.backend === "sqlite") {
      const vector = await store.reader.selectFrom("context_vectors").select("dims").where("chunk_key", "=", row.last).executeTakeFirst();
      if (vector) await vectors.index(scope, Number(vector.dims));
    }
    loaded.push(scope);
  }
  return loaded;
}
