import type { Migration } from "./migration.js";

/**
 * Indexes that answer the two hottest scope reads from the index alone (bench:load):
 * - `POST /context/list` pages newest first (`created_at DESC, source_id`) with its visibility check
 *   (`org_id`, `expires_at`) in the index, so an OFFSET skips index entries without reading a row:
 *   10.5 ms a page at offset up to 10,000 of a 100,000-chunk store before, 1.7 ms after.
 * - The search indexes' chunk count and catch-up (`chunk_key`, `term_count` of one scope) read no
 *   row either: the count of 100,000 chunks went from 40-90 ms to 18 ms.
 * Each replaces the narrower indexes it covers.
 */
const statements = [
  `CREATE INDEX context_items_list_order ON context_items(database_id, corpus, collection, created_at DESC, source_id, org_id, expires_at)`,
  `DROP INDEX context_items_list`,
  `CREATE INDEX context_chunks_scope_covering ON context_chunks(database_id, corpus, collection, chunk_key, org_id, term_count)`,
  `DROP INDEX context_chunks_scope`,
  `DROP INDEX context_chunks_scope_key`,
];

export const migration0014: Migration = {
  version: 14,
  name: "covering indexes for list pages and scope chunk reads",
  sqlite: statements,
  postgres: statements,
};
