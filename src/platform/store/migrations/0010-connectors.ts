import type { Migration } from "./migration.js";

/**
 * Connectors (issue 13): a connector per (organization, provider, account scope), its
 * configured resources with the committed provider cursor and the in-flight checkpoint, and
 * a ledger of the objects each connector wrote (deterministic item id + content hash), which
 * serves unchanged-object skipping and the id-only deletion reconciliation. Every row carries
 * its organization and database. Items written by a connector carry its id (`query_apps`).
 */
const tables = (ts: "INTEGER" | "BIGINT"): string[] => [
  `CREATE TABLE connectors (
     id TEXT PRIMARY KEY,
     org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
     database_id TEXT NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
     database_name TEXT NOT NULL,
     collection TEXT NOT NULL,
     provider TEXT NOT NULL,
     name TEXT NOT NULL,
     provider_account_scope TEXT NOT NULL,
     auth_type TEXT NOT NULL,
     credentials TEXT NOT NULL,
     sync_interval_seconds INTEGER NOT NULL,
     next_sync_at ${ts},
     sync_state TEXT NOT NULL,
     run_id TEXT,
     run_reconcile INTEGER NOT NULL,
     sync_heartbeat_at ${ts},
     last_reconciled_at ${ts},
     last_successful_sync_at ${ts},
     last_attempted_sync_at ${ts},
     last_error TEXT NOT NULL,
     consecutive_failures INTEGER NOT NULL,
     documents_dispatched ${ts} NOT NULL,
     sync_cycles_completed INTEGER NOT NULL,
     needs_reauth INTEGER NOT NULL,
     needs_reauth_at ${ts},
     needs_reauth_reason TEXT NOT NULL,
     paused INTEGER NOT NULL,
     paused_at ${ts},
     custom_instructions TEXT NOT NULL,
     created_at ${ts} NOT NULL,
     updated_at ${ts} NOT NULL)`,
  `CREATE UNIQUE INDEX connectors_account ON connectors(org_id, provider, provider_account_scope)`,
  `CREATE INDEX connectors_due ON connectors(sync_state, next_sync_at)`,
  `CREATE TABLE connector_resources (
     connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
     org_id TEXT NOT NULL,
     database_id TEXT NOT NULL,
     resource_id TEXT NOT NULL,
     resource_type TEXT NOT NULL,
     display_name TEXT NOT NULL,
     collection_override TEXT,
     metadata TEXT NOT NULL,
     additional_metadata TEXT NOT NULL,
     provider_metadata TEXT,
     filters TEXT,
     custom_instructions TEXT,
     acl TEXT,
     status TEXT NOT NULL,
     provider_cursor TEXT NOT NULL,
     checkpoint TEXT,
     last_row_count INTEGER NOT NULL,
     message TEXT NOT NULL,
     checked_at ${ts},
     created_at ${ts} NOT NULL,
     updated_at ${ts} NOT NULL,
     PRIMARY KEY (connector_id, resource_id))`,
  `CREATE TABLE connector_objects (
     connector_id TEXT NOT NULL REFERENCES connectors(id) ON DELETE CASCADE,
     org_id TEXT NOT NULL,
     database_id TEXT NOT NULL,
     resource_id TEXT NOT NULL,
     source_id TEXT NOT NULL,
     collection TEXT NOT NULL,
     kind TEXT NOT NULL,
     native_id TEXT NOT NULL,
     content_hash TEXT NOT NULL,
     updated_at ${ts} NOT NULL,
     PRIMARY KEY (connector_id, source_id))`,
  `CREATE INDEX connector_objects_resource ON connector_objects(connector_id, resource_id)`,
  `ALTER TABLE context_items ADD COLUMN connector_id TEXT`,
];

export const migration0010: Migration = {
  version: 10,
  name: "connectors, resources, object ledger",
  sqlite: tables("INTEGER"),
  postgres: tables("BIGINT"),
};
