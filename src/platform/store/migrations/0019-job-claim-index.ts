import type { Migration } from "./migration.js";

/**
 * The job claim names its lane's kinds: `(status = 'queued' AND run_at <= now OR status =
 * 'running' AND lease_expires_at < now) AND kind IN (...)`. With only (status, run_at), SQLite
 * read every due job of every kind and sorted them, so while graph building lagged behind
 * ingestion (bench:load's soak: thousands of due `ingest.graph` jobs) each ingestion claim read
 * the whole graph backlog: 0.33 ms a claim at 2,000 due jobs, 2.4 ms at 20,000, against 0.016 ms
 * with this index (a seek per kind). Both backends claim with the same statement.
 */
export const migration0019: Migration = {
  version: 19,
  name: "job-claim-index",
  sqlite: [`CREATE INDEX jobs_claim ON jobs(status, kind, run_at)`],
  postgres: [`CREATE INDEX jobs_claim ON jobs(status, kind, run_at)`],
};
