import type { Migration } from "./migration.js";

/**
 * Uploaded files remember the SHA-256 of their bytes, so the same file sent again without an id
 * into the same collection is answered with the stored item instead of being stored twice.
 * Items stored before this migration have no hash and are not matched.
 */
const statements = [
  `ALTER TABLE context_items ADD COLUMN content_hash TEXT`,
  `CREATE INDEX context_items_content_hash ON context_items(database_id, corpus, collection, content_hash)`,
];

export const migration0009: Migration = {
  version: 9,
  name: "context: content hash of uploaded files",
  sqlite: statements,
  postgres: statements,
};
