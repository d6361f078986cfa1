import type { Migration } from "./migration.js";

/**
 * The per-key token buckets on SQLite too (PostgreSQL has them since migration 13): with
 * PROCESSES above 1, several service processes share one store file, and a key's budget must
 * hold across them (platform/http/rate-limit-store.ts). One process keeps its buckets in memory
 * and never touches the table.
 */
export const migration0016: Migration = {
  version: 16,
  name: "rate-limit-buckets-sqlite",
  sqlite: [
    `CREATE TABLE rate_limit_buckets (
       key_id TEXT PRIMARY KEY,
       tokens REAL NOT NULL,
       updated_ms REAL NOT NULL,
       granted INTEGER NOT NULL) WITHOUT ROWID`,
  ],
  postgres: [],
};
