/**
 * Which columns of a database's tables hold ids the service generated (newId: UUID text), and
 * what each refers to. An import checks every one of them in an archive's rows and gives every
 * row new ones (archive-ids.ts): the archive's ids are never written, so no archive can name a
 * row, a file or a database of anyone else in the target store.
 * - `own`: the row's own id; each is new in the target, in the archive's order (ids of items are
 *   compared by some reads, so their order is kept).
 * - otherwise a reference to a row of the same archive, which must be there (chunks excepted: a
 *   triplet's chunk is checked for its form only, as the chunk's id is derived, not looked up).
 * - `nullable`: null is allowed; `empty`: so is "" (a relation that belongs to no chunk).
 */
export type IdKind = "database" | "item" | "blob" | "connector" | "graph" | "chunk" | "run";

export interface IdColumn {
  readonly column: string;
  readonly kind: IdKind;
  readonly own?: true;
  readonly nullable?: true;
  readonly empty?: true;
}

const col = (column: string, kind: IdKind, extra: Omit<IdColumn, "column" | "kind"> = {}): IdColumn => ({ column, kind, ...extra });
const database = col("database_id", "database");
const item = col("item_id", "item");
const graph = col("collection_id", "graph");
const connector = col("connector_id", "connector");

export const ID_COLUMNS: Readonly<Record<string, readonly IdColumn[]>> = {
  databases: [col("id", "database", { own: true })],
  collections: [database],
  blobs: [col("id", "blob", { own: true }), database],
  connectors: [col("id", "connector", { own: true }), database, col("run_id", "run", { nullable: true })],
  connector_resources: [connector, database],
  connector_objects: [connector, database],
  context_items: [col("id", "item", { own: true }), database, col("blob_id", "blob", { nullable: true }), col("connector_id", "connector", { nullable: true })],
  context_chunks: [col("chunk_uuid", "chunk", { own: true }), item, database],
  context_vectors: [database],
  context_graph_links: [database, item],
  context_graph_triplets: [database, item, col("chunk_id", "chunk", { empty: true })],
  context_graph_entities: [database],
  context_graph_mentions: [database, item, col("chunk_id", "chunk", { empty: true })],
  context_graph_people: [database],
  context_graph_aliases: [database],
  graph_collections: [col("id", "graph", { own: true }), database],
  graph_nodes: [graph, database],
  graph_relationships: [graph, database],
  graph_indexes: [graph, database],
};

/** The context graph's columns holding entity ids (re-derived for the new database: entity-ids.ts). */
export const ENTITY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  context_graph_triplets: ["source_entity_id", "target_entity_id"],
  context_graph_entities: ["entity_id"],
  context_graph_mentions: ["entity_id"],
  context_graph_people: ["entity_id"],
  context_graph_aliases: ["entity_id"],
};

/** Tables whose `scope` column names the database (`<database id>|<corpus>/<collection>`, graph-write-store.ts aliasScopeKey). */
export const SCOPED_BY_DATABASE: ReadonlySet<string> = new Set(["context_graph_people", "context_graph_aliases"]);
