import type { IndexDefinition } from "../../engines/cypher/index.js";

/** One graph of the graph area; `version` increases with every committed change. */
export interface GraphCollectionsTable {
  id: string;
  org_id: string;
  database_id: string;
  name: string;
  version: number;
  created_at: number;
}

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

/** The identity and committed version of a stored collection; ids are never reused by a new collection. */
export interface CollectionHead {
  readonly id: string;
  readonly version: number;
}

/** A node as stored (labels and properties encoded; see graph-codec.ts), as pages and change sets carry it. */
export type NodeRow = readonly [nodeId: number, labels: string, properties: string];
/** A relationship as stored. */
export type RelationshipRow = readonly [relId: number, type: string, start: number, end: number, properties: string];

/**
 * One query's changes in their stored form (built by the query worker from its change set):
 * deleted ids, the current state of every created or updated entity, and the full index list
 * when it changed (null otherwise).
 */
export interface ChangeRows {
  readonly deletedNodes: readonly number[];
  readonly deletedRelationships: readonly number[];
  readonly nodes: readonly NodeRow[];
  readonly relationships: readonly RelationshipRow[];
  readonly indexes: readonly IndexDefinition[] | null;
}
