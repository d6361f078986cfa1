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

/** One graph of the graph area; `version` increases with every committed change. */
export interface GraphCollectionsTable {
  id: string;
  org_id: string;
  database_id: string;
  name: string;
  version: number;
  created_at: number;
}

/** Graph rows carry their organization and database; `labels` and `properties` are JSON text. */
interface GraphRowScope {
  collection_id: string;
  org_id: string;
  database_id: string;
}

export interface GraphNodesTable extends GraphRowScope {
  node_id: number;
  labels: string;
  properties: string;
}

export interface GraphRelationshipsTable extends GraphRowScope {
  rel_id: number;
  type: string;
  start_node: number;
  end_node: number;
  properties: string;
}

export interface GraphIndexesTable extends GraphRowScope {
  entity: "node" | "relationship";
  token: string;
  property: string;
}

export interface Schema {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  databases: DatabasesTable;
  collections: CollectionsTable;
  jobs: JobsTable;
  schema_migrations: SchemaMigrationsTable;
  graph_collections: GraphCollectionsTable;
  graph_nodes: GraphNodesTable;
  graph_relationships: GraphRelationshipsTable;
  graph_indexes: GraphIndexesTable;
}
