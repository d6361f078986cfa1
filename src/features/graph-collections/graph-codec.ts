import type { ChangeSet, IndexDefinition } from "../../engines/cypher/index.js";
import { CollectionGraph } from "./collection-graph.js";
import type { ChangeRows, NodeRow, RelationshipRow } from "./rows.js";
import { decodeLabels, decodeProperties, encodeLabels, encodeProperties } from "./property-codec.js";

/**
 * The query worker's side of the stored form: it builds a graph from stored pages and turns a
 * query's change set into rows, so the main thread only moves rows between the store and the
 * worker and never decodes or encodes a property.
 */
export class StoredGraphLoader {
  readonly graph = new CollectionGraph();

  addNodes(rows: readonly NodeRow[]): void {
    for (const [id, labels, properties] of rows) this.graph.restoreNode(id, decodeLabels(labels), decodeProperties(properties));
  }

  addRelationships(rows: readonly RelationshipRow[]): void {
    for (const [id, type, start, end, properties] of rows) this.graph.restoreRelationship(id, type, start, end, decodeProperties(properties));
  }

  /** Indexes come last (they index what was restored); the loaded state is the committed baseline. */
  finish(indexes: readonly IndexDefinition[]): CollectionGraph {
    for (const def of indexes) this.graph.createIndex(def);
    this.graph.commit();
    this.graph.takeChanges();
    return this.graph;
  }
}

export function encodeChanges(graph: CollectionGraph, changes: ChangeSet): ChangeRows {
  const nodes = [...changes.createdNodes, ...changes.updatedNodes].map((id): NodeRow => [
    id,
    encodeLabels(graph.nodeLabels(id)),
    encodeProperties(graph.nodeProperties(id)),
  ]);
  const relationships = [...changes.createdRelationships, ...changes.updatedRelationships].map((id): RelationshipRow => {
    const rel = graph.relationship(id);
    return [id, rel.type, rel.start, rel.end, encodeProperties(graph.relProperties(id))];
  });
  return {
    deletedNodes: [...changes.deletedNodes],
    deletedRelationships: [...changes.deletedRelationships],
    nodes,
    relationships,
    indexes: changes.indexesChanged ? [...graph.listIndexes()] : null,
  };
}
