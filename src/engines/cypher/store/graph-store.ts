import type { PropertyValue } from "../values/value.js";

/**
 * The storage contract the operators run against. It is synchronous on purpose: operators pull
 * rows one at a time and an `await` per edge would dominate traversal cost. A persistence layer
 * loads a graph into an implementation of this interface (or implements it over a cache) and
 * writes `takeChanges()` back in one transaction after a successful query.
 */
export interface GraphStore {
  hasNode(id: number): boolean;
  hasRelationship(id: number): boolean;
  nodeLabels(id: number): readonly string[];
  nodeHasLabel(id: number, label: string): boolean;
  nodeProperty(id: number, key: string): PropertyValue | undefined;
  nodeProperties(id: number): ReadonlyMap<string, PropertyValue>;
  relationship(id: number): RelationshipRecord;
  relProperty(id: number, key: string): PropertyValue | undefined;
  relProperties(id: number): ReadonlyMap<string, PropertyValue>;

  /** All node ids in creation order. Callers must not write while iterating. */
  allNodes(): Iterable<number>;
  nodesByLabel(label: string): Iterable<number>;
  allRelationships(): Iterable<number>;
  /** Relationship ids in insertion order; the arrays must not be mutated or held across writes. */
  outgoing(nodeId: number): readonly number[];
  incoming(nodeId: number): readonly number[];
  nodeCount(): number;

  createNode(labels: readonly string[], props: ReadonlyMap<string, PropertyValue>): number;
  createRelationship(type: string, start: number, end: number, props: ReadonlyMap<string, PropertyValue>): number;
  /** Deletes a node that has no relationships left; the caller checks connectivity. */
  deleteNode(id: number): void;
  deleteRelationship(id: number): void;
  /** `undefined` removes the property. */
  setNodeProperty(id: number, key: string, value: PropertyValue | undefined): void;
  setRelProperty(id: number, key: string, value: PropertyValue | undefined): void;
  addLabel(id: number, label: string): void;
  removeLabel(id: number, label: string): void;

  createIndex(index: IndexDefinition): boolean;
  dropIndex(index: IndexDefinition): boolean;
  listIndexes(): readonly IndexDefinition[];
  /** Ids whose indexed property is equivalent to `value`, or null when no such index exists. */
  indexLookup(index: IndexDefinition, value: PropertyValue): Iterable<number> | null;

  /** Undo log position; `rollback(mark)` undoes every write made after it. */
  mark(): number;
  rollback(mark: number): void;
  /** Forgets undo entries (the query committed). */
  commit(): void;
  /** Entities touched since the previous call, classified against the state at that call. */
  takeChanges(): ChangeSet;
}

export interface RelationshipRecord {
  readonly type: string;
  readonly start: number;
  readonly end: number;
}

export interface IndexDefinition {
  readonly entity: "node" | "relationship";
  /** Label for node indexes, relationship type for relationship indexes. */
  readonly token: string;
  readonly property: string;
}

export interface ChangeSet {
  readonly createdNodes: readonly number[];
  readonly updatedNodes: readonly number[];
  readonly deletedNodes: readonly number[];
  readonly createdRelationships: readonly number[];
  readonly updatedRelationships: readonly number[];
  readonly deletedRelationships: readonly number[];
  readonly indexesChanged: boolean;
}
