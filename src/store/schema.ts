/**
 * Row types of the relational schema shared by both backends. Timestamps are epoch
 * milliseconds (INTEGER / BIGINT) and JSON columns are text on both, so a row reads
 * back identically whichever backend stored it.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  /** hex SHA-256 of the key; the key itself is never stored. */
  key_hash: string;
  /** first characters of the key, shown in listings so an operator can tell keys apart. */
  prefix: string;
  name: string;
  created_at: number;
  revoked_at: number | null;
  expires_at: number | null;
}

export type DatabaseStatus = "provisioning" | "ready" | "failed" | "deleting";
export type DatabaseKind = "context" | "graph";

export interface DatabasesTable {
  id: string;
  org_id: string;
  name: string;
  kind: DatabaseKind;
  status: DatabaseStatus;
  /** JSON array of schema field definitions. */
  metadata_schema: string;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface CollectionsTable {
  database_id: string;
  name: string;
  created_at: number;
}

export type JobStatus = "queued" | "running" | "completed" | "dead";

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: number;
}

export interface QueryLogTable {
  org_id: string;
  request_id: string;
  database_name: string | null;
  collection: string | null;
  created_at: number;
}

export interface FeedbackTable {
  id: string;
  org_id: string;
  request_id: string;
  database_id: string | null;
  database_name: string | null;
  collection: string | null;
  feedback: string | null;
  rating: string | null;
  source: string;
  /** JSON {answer?, source_ids?} after normalisation. */
  ground_truth: string | null;
  /** JSON object. */
  metadata: string | null;
  created_at: number;
}

export interface WebhookEndpointsTable {
  org_id: string;
  url: string;
  /** JSON array of event kinds. */
  event_types: string;
  /** Sealed secret (webhooks/secret-box.ts); null when signing is disabled. */
  signing_secret: string | null;
  created_at: number;
  updated_at: number;
}

export type WebhookDeliveryStatus = "pending" | "completed" | "failed";

export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  event_type: string;
  doc_id: string;
  database_name: string;
  collection: string;
  indexing_status: string;
  /** The exact JSON body sent on every attempt. */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  max_attempts: number;
  /** Last delivery failure; empty strings when there is none. */
  error_code: string;
  error_message: string;
  last_status_code: number | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export interface Schema {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  databases: DatabasesTable;
  collections: CollectionsTable;
  jobs: JobsTable;
  schema_migrations: SchemaMigrationsTable;
  query_log: QueryLogTable;
  feedback: FeedbackTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
