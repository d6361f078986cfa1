import type { Migration } from "./migration.js";

/**
 * The SQLite vector index's catch-up reads (vector-store.ts: the scope's keys above the highest
 * read, and every 5 s the count up to it) filter on the organization too, which the scope index
 * of migration 1 lacks: each read visited the table's rows, 2 KB vectors and all (a count took
 * 250-300 ms at 110,000 vectors, on the request thread). With `org_id` in the index (the rowid,
 * `chunk_key`, follows it) both are range reads of the index alone.
 */
export const migration0017: Migration = {
  version: 17,
  name: "vector-scope-keys-sqlite",
  sqlite: ["CREATE INDEX context_vectors_scope_keys ON context_vectors(database_id, corpus, collection, org_id)", "DROP INDEX context_vectors_scope"],
  postgres: [],
};
