/** Where a connector's sync stands: no run, a run waiting for its job, a run in progress. */
export type ConnectorSyncState = "idle" | "queued" | "running";

/** A connector: one provider account feeding one database (`connectors`). */
export interface ConnectorsTable {
  id: string;
  org_id: string;
  database_id: string;
  database_name: string;
  collection: string;
  provider: string;
  name: string;
  provider_account_scope: string;
  auth_type: string;
  /** Sealed JSON of the credentials (see platform/secrets/secret-box.ts); never returned. */
  credentials: string;
  sync_interval_seconds: number;
  next_sync_at: number | null;
  sync_state: ConnectorSyncState;
  /** The run queued or in progress; its jobs carry it, so a stale job stops without writing. */
  run_id: string | null;
  /** Whether the current run ends with the id-only deletion reconciliation. */
  run_reconcile: number;
  /** Touched while a run makes progress; a run silent for too long is taken as dead. */
  sync_heartbeat_at: number | null;
  last_reconciled_at: number | null;
  last_successful_sync_at: number | null;
  last_attempted_sync_at: number | null;
  last_error: string;
  /** What kind of failure `last_error` is (SyncErrorCode); empty with it. */
  last_error_code: string;
  consecutive_failures: number;
  documents_dispatched: number;
  sync_cycles_completed: number;
  needs_reauth: number;
  needs_reauth_at: number | null;
  needs_reauth_reason: string;
  paused: number;
  paused_at: number | null;
  custom_instructions: string;
  created_at: number;
  updated_at: number;
}

/** A resource (channel, repository, ...) a connector syncs, with its cursor (`connector_resources`). */
export interface ConnectorResourcesTable {
  connector_id: string;
  org_id: string;
  database_id: string;
  resource_id: string;
  resource_type: string;
  display_name: string;
  collection_override: string | null;
  metadata: string;
  additional_metadata: string;
  provider_metadata: string | null;
  filters: string | null;
  custom_instructions: string | null;
  acl: string | null;
  status: string;
  /** Committed high-water mark, exactly as on the wire; "" = never pulled. */
  provider_cursor: string;
  /** JSON of the in-flight window and page state; null between runs. */
  checkpoint: string | null;
  last_row_count: number;
  message: string;
  checked_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The ledger: one row per provider object a connector wrote as an item (`connector_objects`). */
export interface ConnectorObjectsTable {
  connector_id: string;
  org_id: string;
  database_id: string;
  resource_id: string;
  source_id: string;
  collection: string;
  kind: string;
  native_id: string;
  content_hash: string;
  updated_at: number;
}
