import type { Migration } from "./migration.js";

/**
 * BM25 runs in process (term-indexes.ts): the stored postings are read only by chunk key, to
 * build or bring level an in-memory index, and removed by chunk key or by database. The index
 * by (database, corpus, collection, term) served the SQL search that came before; no statement
 * uses it any more, and every posting written paid for it: inserted in term order, it touched
 * pages all over the index, so each group commit wrote them all to the log. Deletions by
 * database keep `context_terms_database`.
 */
export const migration0020: Migration = {
  version: 20,
  name: "drop-term-lookup-index",
  sqlite: [`DROP INDEX IF EXISTS context_terms_lookup`],
  postgres: [`DROP INDEX IF EXISTS context_terms_lookup`],
};
