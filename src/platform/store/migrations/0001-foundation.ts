import type { Migration } from "./migration.js";

/** Organizations, hashed API keys, databases, collections and the durable job queue. */
const tables = (big: string): string[] => [
  `CREATE TABLE organizations (
     id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at ${big} NOT NULL)`,
  `CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     key_hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL, name TEXT NOT NULL,
     created_at ${big} NOT NULL, revoked_at ${big}, expires_at ${big})`,
  `CREATE INDEX api_keys_org ON api_keys(org_id)`,
  `CREATE TABLE databases (
     id TEXT PRIMARY KEY,
     org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     name TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
     metadata_schema TEXT NOT NULL, error TEXT,
     created_at ${big} NOT NULL, updated_at ${big} NOT NULL)`,
  // A database being deleted frees its name at once; its rows are purged by a job.
  `CREATE UNIQUE INDEX databases_live_name ON databases(org_id, name) WHERE status <> 'deleting'`,
  `CREATE TABLE collections (
     database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
     name TEXT NOT NULL, created_at ${big} NOT NULL,
     PRIMARY KEY (database_id, name))`,
  `CREATE TABLE jobs (
     id TEXT PRIMARY KEY, kind TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL,
     attempts INTEGER NOT NULL, max_attempts INTEGER NOT NULL, run_at ${big} NOT NULL,
     lease_owner TEXT, lease_expires_at ${big}, last_error TEXT, dedupe_key TEXT,
     created_at ${big} NOT NULL, updated_at ${big} NOT NULL, completed_at ${big})`,
  `CREATE INDEX jobs_ready ON jobs(status, run_at)`,
  `CREATE UNIQUE INDEX jobs_dedupe ON jobs(dedupe_key) WHERE dedupe_key IS NOT NULL`,
];

export const migration0001: Migration = {
  version: 1,
  name: "foundation",
  sqlite: tables("INTEGER"),
  postgres: [`CREATE EXTENSION IF NOT EXISTS vector`, ...tables("BIGINT")],
};
