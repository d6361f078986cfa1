import type { Migration } from "./migration.js";

// One column list per table, shared by both dialects; only the timestamp type differs.
const tables = (ts: "INTEGER" | "BIGINT"): string[] => [
  // Queries this organization made: feedback may only refer to one of these.
  `CREATE TABLE query_log (
     org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     request_id TEXT NOT NULL, database_name TEXT, collection TEXT,
     created_at ${ts} NOT NULL,
     PRIMARY KEY (org_id, request_id))`,
  `CREATE TABLE feedback (
     id TEXT PRIMARY KEY,
     org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     request_id TEXT NOT NULL, database_id TEXT, database_name TEXT, collection TEXT,
     feedback TEXT, rating TEXT, source TEXT NOT NULL,
     ground_truth TEXT, metadata TEXT,
     created_at ${ts} NOT NULL)`,
  // Serves the per-organization rate window and the purge of a deleted database.
  `CREATE INDEX feedback_org_time ON feedback(org_id, created_at)`,
  `CREATE INDEX feedback_database ON feedback(database_id)`,
  // One registration per organization; signing_secret is sealed (see webhooks/secret-box.ts).
  `CREATE TABLE webhook_endpoints (
     org_id TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
     url TEXT NOT NULL, event_types TEXT NOT NULL, signing_secret TEXT,
     created_at ${ts} NOT NULL, updated_at ${ts} NOT NULL)`,
  // The outbox: written in the transaction of the status change, delivered by jobs.
  `CREATE TABLE webhook_deliveries (
     id TEXT PRIMARY KEY,
     org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     event_type TEXT NOT NULL, doc_id TEXT NOT NULL,
     database_name TEXT NOT NULL, collection TEXT NOT NULL, indexing_status TEXT NOT NULL,
     payload TEXT NOT NULL, status TEXT NOT NULL,
     attempts INTEGER NOT NULL, max_attempts INTEGER NOT NULL,
     error_code TEXT NOT NULL, error_message TEXT NOT NULL, last_status_code INTEGER,
     created_at ${ts} NOT NULL, updated_at ${ts} NOT NULL, completed_at ${ts})`,
  `CREATE INDEX webhook_deliveries_org_time ON webhook_deliveries(org_id, created_at, id)`,
];

/** Feedback with its query log, webhook registrations and the webhook delivery outbox. */
export const migration0003: Migration = {
  version: 3,
  name: "feedback-webhooks",
  sqlite: tables("INTEGER"),
  postgres: tables("BIGINT"),
};
