import type { Migration } from "./migration.js";

/**
 * The per-key token buckets every process on one PostgreSQL shares (platform/http/rate-limit-store.ts).
 * UNLOGGED: a bucket is worth one minute of traffic, so it is not worth a WAL write per request; a
 * crash of the server empties the table, which only refills every key's budget. One row per API key,
 * keyed by the key's id: it holds no organization's data (like the job queue), so no row policy.
 * SQLite: the same table since migration 16, used when PROCESSES is above 1.
 */
export const migration0013: Migration = {
  version: 13,
  name: "rate-limit-buckets",
  sqlite: [],
  postgres: [
    `CREATE UNLOGGED TABLE rate_limit_buckets (
       key_id TEXT PRIMARY KEY,
       tokens DOUBLE PRECISION NOT NULL,
       updated_ms DOUBLE PRECISION NOT NULL,
       granted INTEGER NOT NULL)`,
  ],
};
