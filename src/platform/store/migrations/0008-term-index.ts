import type { Migration } from "./migration.js";

/**
 * The in-process BM25 index catches up with new chunks of a scope by chunk key: the scope's
 * chunks in key order, without scanning the whole scope on every query.
 */
const statements = [`CREATE INDEX context_chunks_scope_key ON context_chunks(database_id, corpus, collection, chunk_key)`];

export const migration0008: Migration = {
  version: 8,
  name: "query: chunks of a scope by key",
  sqlite: statements,
  postgres: statements,
};
