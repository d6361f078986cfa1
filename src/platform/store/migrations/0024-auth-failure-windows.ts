import type { Migration } from "./migration.js";

/**
 * Failed authentications per client address, shared by every process on one store
 * (platform/http/auth-failure-store.ts): a sliding-window counter, the current minute's failures
 * and the previous minute's. It holds no organization's data (an address, two counts), so no row
 * policy. PostgreSQL: UNLOGGED, as rate_limit_buckets: a crash empties it, which only forgives
 * a minute of failures. SQLite uses it with PROCESSES above 1; one process counts in memory.
 */
export const migration0024: Migration = {
  version: 24,
  name: "auth-failure-windows",
  sqlite: [
    `CREATE TABLE auth_failure_windows (
       address TEXT PRIMARY KEY,
       window_start_ms REAL NOT NULL,
       previous INTEGER NOT NULL,
       current INTEGER NOT NULL) WITHOUT ROWID`,
  ],
  postgres: [
    `CREATE UNLOGGED TABLE auth_failure_windows (
       address TEXT PRIMARY KEY,
       window_start_ms DOUBLE PRECISION NOT NULL,
       previous INTEGER NOT NULL,
       current INTEGER NOT NULL)`,
  ],
};
