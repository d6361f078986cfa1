/**
 * Which tables a move copies, in an order that satisfies their foreign keys, and the columns that
 * order each table's rows uniquely (keyset paging: a page starts after the last key read, so a
 * 5-million-row postings table is read in linear time). Tables without a unique key are paged
 * by offset over all their columns (identical rows are indistinguishable, so any order of them is
 * the same copy).
 */
export interface TablePlan {
  readonly table: string;
  readonly keys: readonly string[];
  /** False: page by offset (no unique key). */
  readonly keyset: boolean;
}

const plan = (table: string, keys: readonly string[], keyset = true): TablePlan => ({ table, keys, keyset });

/** One database's rows: every one of these tables carries `database_id` and `org_id`. */
export const DATABASE_TABLES: readonly TablePlan[] = [
  plan("databases", ["id"]),
  plan("collections", ["database_id", "name"]),
  plan("blobs", ["id"]),
  plan("connectors", ["id"]),
  plan("connector_resources", ["connector_id", "resource_id"]),
  plan("connector_objects", ["connector_id", "source_id"]),
  plan("context_items", ["id"]),
  plan("context_chunks", ["chunk_key"]),
  plan("context_vectors", ["chunk_key"]),
  plan("context_graph_links", ["item_id", "target_source_id", "kind", "relation_type", "corpus", "collection", "created_at"], false),
  plan("context_graph_triplets", ["triplet_key"]),
  plan("context_graph_entities", ["corpus", "collection", "entity_id"]),
  plan("context_graph_mentions", ["item_id", "chunk_id", "entity_id", "corpus", "collection"], false),
  plan("context_graph_people", ["scope", "entity_id"]),
  plan("context_graph_aliases", ["scope", "alias_key", "entity_id"]),
  plan("graph_collections", ["id"]),
  plan("graph_nodes", ["collection_id", "node_id"]),
  plan("graph_relationships", ["collection_id", "rel_id"]),
  plan("graph_indexes", ["collection_id", "entity", "token", "property"]),
];

/** Rows of the store that belong to no single database: copied by `migrate` before the databases. */
export const STORE_TABLES_BEFORE: readonly TablePlan[] = [
  plan("organizations", ["id"]),
  plan("api_keys", ["id"]),
  plan("settings", ["name"]),
  plan("webhook_endpoints", ["org_id"]),
];

/** Copied by `migrate` after the databases: history and the job queue. */
export const STORE_TABLES_AFTER: readonly TablePlan[] = [
  plan("jobs", ["id"]),
  plan("webhook_deliveries", ["id"]),
  plan("query_log", ["org_id", "request_id"]),
  plan("feedback", ["id"]),
];

/** Store-generated serial keys: never copied, the target assigns its own (in the source's order). */
export const SERIAL_KEYS: Readonly<Record<string, string>> = { context_chunks: "chunk_key", context_graph_triplets: "triplet_key" };
