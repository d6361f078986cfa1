import type { Generated } from "kysely";
import type { ConnectorObjectsTable, ConnectorResourcesTable, ConnectorsTable } from "../../features/connectors/rows.js";
import type {
  ContextGraphAliasesTable,
  ContextGraphEntitiesTable,
  ContextGraphLinksTable,
  ContextGraphMentionsTable,
  ContextGraphPeopleTable,
  ContextGraphTripletsTable,
} from "../../features/context-graph/rows.js";
import type { GraphCollectionsTable, GraphIndexesTable, GraphNodesTable, GraphRelationshipsTable } from "../../features/graph-collections/rows.js";
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from "../../features/webhooks/rows.js";

/** Kysely's column types, for the features' row interfaces (which may not import the query builder). */
export type { Generated } from "kysely";

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
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
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

export type Corpus = "knowledge" | "memory";
export type IndexingStatus = "queued" | "processing" | "graph_creation" | "completed" | "errored";
export type ItemOrigin = "file" | "app" | "memory";

export interface ContextItemsTable {
  id: string;
  org_id: string;
  database_id: string;
  collection: string;
  corpus: Corpus;
  source_id: string;
  /** Bumped by every upsert; pipeline jobs of older generations stop without writing. */
  generation: number;
  origin: ItemOrigin;
  title: string;
  type: string;
  description: string | null;
  note: string | null;
  url: string | null;
  item_timestamp: number | null;
  metadata: string;
  additional_metadata: string;
  relations: string;
  /** JSON array of principals, or null for unrestricted. */
  acl: string | null;
  app_kind: string | null;
  app_provider: string | null;
  app_external_id: string | null;
  thread_id: string | null;
  parent_id: string | null;
  /** JSON of what was ingested (app item or memory); files keep their bytes in a blob. */
  content: string | null;
  file_name: string | null;
  file_mime: string | null;
  /** SHA-256 (hex) of an uploaded file's bytes; null for other items and files stored before it existed. */
  content_hash: string | null;
  blob_id: string | null;
  infer: number;
  inferred_content: string | null;
  custom_instructions: string | null;
  user_name: string | null;
  expires_at: number | null;
  status: IndexingStatus;
  error_code: string | null;
  message: string | null;
  chunk_count: number;
  created_at: number;
  updated_at: number;
  /** The connector that wrote this item (POST /query includes these only with query_apps). */
  connector_id: string | null;
}

export interface ContextChunksTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  chunk_key: Generated<number>;
  chunk_uuid: string;
  item_id: string;
  database_id: string;
  collection: string;
  corpus: Corpus;
  position: number;
  content: string;
  section_path: string;
  page: number | null;
  unit: string | null;
  token_count: number;
  term_count: number;
}

export interface ContextTermsTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  chunk_key: number;
  database_id: string;
  corpus: Corpus;
  collection: string;
  term: string;
  tf: number;
}

export interface ContextVectorsTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  chunk_key: number;
  database_id: string;
  corpus: Corpus;
  collection: string;
  dims: number;
  /** SQLite: little-endian f32 BLOB; PostgreSQL: pgvector text form on write. */
  embedding: Uint8Array | string;
}

export interface BlobsTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  id: string;
  database_id: string;
  size: number;
  data: Uint8Array | null;
  created_at: number;
}

export interface SettingsTable {
  name: string;
  value: string;
  created_at: number;
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

export interface Schema {
  connectors: ConnectorsTable;
  connector_resources: ConnectorResourcesTable;
  connector_objects: ConnectorObjectsTable;
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  databases: DatabasesTable;
  collections: CollectionsTable;
  jobs: JobsTable;
  schema_migrations: SchemaMigrationsTable;
  context_items: ContextItemsTable;
  context_chunks: ContextChunksTable;
  context_terms: ContextTermsTable;
  context_vectors: ContextVectorsTable;
  blobs: BlobsTable;
  settings: SettingsTable;
  query_log: QueryLogTable;
  feedback: FeedbackTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  graph_collections: GraphCollectionsTable;
  graph_nodes: GraphNodesTable;
  graph_relationships: GraphRelationshipsTable;
  graph_indexes: GraphIndexesTable;
  context_graph_links: ContextGraphLinksTable;
  context_graph_triplets: ContextGraphTripletsTable;
  context_graph_entities: ContextGraphEntitiesTable;
  context_graph_mentions: ContextGraphMentionsTable;
  context_graph_people: ContextGraphPeopleTable;
  context_graph_aliases: ContextGraphAliasesTable;
}
