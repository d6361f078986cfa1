import type { PropertyValue } from "../values/value.js";
import type { ChangeSet, GraphStore, IndexDefinition, RelationshipRecord } from "./graph-store.js";
import { PropertyIndex, indexKey } from "./property-index.js";

interface NodeRecord {
  labels: string[];
  props: Map<string, PropertyValue>;
  out: number[];
  in: number[];
}

interface RelRecord {
  type: string;
  start: number;
  end: number;
  props: Map<string, PropertyValue>;
}

const EMPTY: readonly number[] = [];

/**
 * In-memory graph with an undo log and a change set. Ids freed by deletion become reusable only
 * after `takeChanges()`, so one change set never sees an id both deleted and re-created.
 */
export class MemoryGraphStore implements GraphStore {
  private readonly nodes = new Map<number, NodeRecord>();
  private readonly rels = new Map<number, RelRecord>();
  private readonly labelIndex = new Map<string, Set<number>>();
  private readonly nodeIndexes = new Map<string, PropertyIndex>();
  private readonly relIndexes = new Map<string, PropertyIndex>();
  private readonly indexDefs: IndexDefinition[] = [];
  private readonly undo: (() => void)[] = [];
  private nextNodeId = 0;
  private nextRelId = 0;
  private freeNodeIds: number[] = [];
  private freeRelIds: number[] = [];
  private pendingFreeNodeIds: number[] = [];
  private pendingFreeRelIds: number[] = [];
  private touchedNodes = new Set<number>();
  private touchedRels = new Set<number>();
  private createdNodes = new Set<number>();
  private createdRels = new Set<number>();
  private indexesChanged = false;

  hasNode(id: number): boolean {
    return this.nodes.has(id);
  }

  hasRelationship(id: number): boolean {
    return this.rels.has(id);
  }

  nodeLabels(id: number): readonly string[] {
    return this.node(id).labels;
  }

  nodeHasLabel(id: number, label: string): boolean {
    return this.node(id).labels.includes(label);
  }

  nodeProperty(id: number, key: string): PropertyValue | undefined {
    return this.node(id).props.get(key);
  }

  nodeProperties(id: number): ReadonlyMap<string, PropertyValue> {
    return this.node(id).props;
  }

  relationship(id: number): RelationshipRecord {
    return this.rel(id);
  }

  relProperty(id: number, key: string): PropertyValue | undefined {
    return this.rel(id).props.get(key);
  }

  relProperties(id: number): ReadonlyMap<string, PropertyValue> {
    return this.rel(id).props;
  }

  allNodes(): Iterable<number> {
    return this.nodes.keys();
  }

  nodesByLabel(label: string): Iterable<number> {
    return this.labelIndex.get(label) ?? EMPTY;
  }

  allRelationships(): Iterable<number> {
    return this.rels.keys();
  }

  outgoing(nodeId: number): readonly number[] {
    return this.nodes.get(nodeId)?.out ?? EMPTY;
  }

  incoming(nodeId: number): readonly number[] {
    return this.nodes.get(nodeId)?.in ?? EMPTY;
  }

  nodeCount(): number {
    return this.nodes.size;
  }

  createNode(labels: readonly string[], props: ReadonlyMap<string, PropertyValue>): number {
    const id = this.freeNodeIds.pop() ?? this.nextNodeId++;
    const record: NodeRecord = { labels: [...new Set(labels)], props: new Map(props), out: [], in: [] };
    this.nodes.set(id, record);
    for (const l of record.labels) this.labelSet(l).add(id);
    for (const [k, v] of record.props) this.indexNode(id, record.labels, k, v, true);
    this.touchedNodes.add(id);
    this.createdNodes.add(id);
    this.undo.push(() => this.unlinkNode(id));
    return id;
  }

  createRelationship(type: string, start: number, end: number, props: ReadonlyMap<string, PropertyValue>): number {
    const id = this.freeRelIds.pop() ?? this.nextRelId++;
    const record: RelRecord = { type, start, end, props: new Map(props) };
    this.linkRel(id, record);
    this.touchedRels.add(id);
    this.createdRels.add(id);
    this.undo.push(() => this.unlinkRel(id));
    return id;
  }

  deleteNode(id: number): void {
    const record = this.node(id);
    if (record.out.length > 0 || record.in.length > 0) throw new Error(`node ${id} still has relationships`);
    this.unlinkNode(id);
    this.touchedNodes.add(id);
    this.undo.push(() => this.relinkNode(id, record));
  }

  deleteRelationship(id: number): void {
    const record = this.rel(id);
    // Adjacency order is observable (expansion order, shortestPath tie-breaks), so undo restores positions.
    const outPos = this.node(record.start).out.indexOf(id);
    const inPos = this.node(record.end).in.indexOf(id);
    this.unlinkRel(id);
    this.touchedRels.add(id);
    this.undo.push(() => {
      this.linkRel(id, record);
      moveLastTo(this.node(record.start).out, outPos);
      moveLastTo(this.node(record.end).in, inPos);
    });
  }

  setNodeProperty(id: number, key: string, value: PropertyValue | undefined): void {
    const record = this.node(id);
    const old = record.props.get(key);
    this.writeNodeProp(id, record, key, value);
    this.touchedNodes.add(id);
    this.undo.push(() => this.writeNodeProp(id, record, key, old));
  }

  setRelProperty(id: number, key: string, value: PropertyValue | undefined): void {
    const record = this.rel(id);
    const old = record.props.get(key);
    this.writeRelProp(id, record, key, value);
    this.touchedRels.add(id);
    this.undo.push(() => this.writeRelProp(id, record, key, old));
  }

  addLabel(id: number, label: string): void {
    const record = this.node(id);
    if (record.labels.includes(label)) return;
    this.attachLabel(id, record, label);
    this.touchedNodes.add(id);
    this.undo.push(() => this.detachLabel(id, record, label));
  }

  removeLabel(id: number, label: string): void {
    const record = this.node(id);
    if (!record.labels.includes(label)) return;
    this.detachLabel(id, record, label);
    this.touchedNodes.add(id);
    this.undo.push(() => this.attachLabel(id, record, label));
  }

  /**
   * Bulk loading from persistence: puts a node back under its stored id, outside the undo log and
   * the change set. Ids below the highest restored one that are not in use are never handed out
   * again by this instance (a gap costs nothing; reusing an id another process may still hold
   * would). Restore every node before the relationships that use it.
   */
  restoreNode(id: number, labels: readonly string[], props: ReadonlyMap<string, PropertyValue>): void {
    const record: NodeRecord = { labels: [...new Set(labels)], props: new Map(props), out: [], in: [] };
    this.nodes.set(id, record);
    for (const l of record.labels) this.labelSet(l).add(id);
    for (const [k, v] of record.props) this.indexNode(id, record.labels, k, v, true);
    if (id >= this.nextNodeId) this.nextNodeId = id + 1;
  }

  /** Bulk loading counterpart of `restoreNode`; adjacency order follows restore order. */
  restoreRelationship(id: number, type: string, start: number, end: number, props: ReadonlyMap<string, PropertyValue>): void {
    this.linkRel(id, { type, start, end, props: new Map(props) });
    if (id >= this.nextRelId) this.nextRelId = id + 1;
  }

  createIndex(index: IndexDefinition): boolean {
    const key = indexKey(index.token, index.property);
    const target = index.entity === "node" ? this.nodeIndexes : this.relIndexes;
    if (target.has(key)) return false;
    this.buildIndex(index);
    this.indexesChanged = true;
    this.undo.push(() => this.removeIndex(index));
    return true;
  }

  dropIndex(index: IndexDefinition): boolean {
    const target = index.entity === "node" ? this.nodeIndexes : this.relIndexes;
    if (!target.has(indexKey(index.token, index.property))) return false;
    this.removeIndex(index);
    this.indexesChanged = true;
    this.undo.push(() => this.buildIndex(index));
    return true;
  }

  listIndexes(): readonly IndexDefinition[] {
    return this.indexDefs;
  }

  indexLookup(index: IndexDefinition, value: PropertyValue): Iterable<number> | null {
    const target = index.entity === "node" ? this.nodeIndexes : this.relIndexes;
    return target.get(indexKey(index.token, index.property))?.lookup(value) ?? null;
  }

  mark(): number {
    return this.undo.length;
  }

  rollback(mark: number): void {
    while (this.undo.length > mark) this.undo.pop()?.();
  }

  commit(): void {
    this.undo.length = 0;
  }

  takeChanges(): ChangeSet {
    const classify = (touched: Set<number>, created: Set<number>, exists: (id: number) => boolean) => {
      const c: number[] = [];
      const u: number[] = [];
      const d: number[] = [];
      for (const id of touched) {
        const isNew = created.has(id);
        const present = exists(id);
        if (isNew && present) c.push(id);
        else if (!isNew && present) u.push(id);
        else if (!isNew && !present) d.push(id);
      }
      return [c, u, d] as const;
    };
    const [cn, un, dn] = classify(this.touchedNodes, this.createdNodes, (id) => this.nodes.has(id));
    const [cr, ur, dr] = classify(this.touchedRels, this.createdRels, (id) => this.rels.has(id));
    const changes: ChangeSet = {
      createdNodes: cn,
      updatedNodes: un,
      deletedNodes: dn,
      createdRelationships: cr,
      updatedRelationships: ur,
      deletedRelationships: dr,
      indexesChanged: this.indexesChanged,
    };
    this.touchedNodes = new Set();
    this.touchedRels = new Set();
    this.createdNodes = new Set();
    this.createdRels = new Set();
    this.indexesChanged = false;
    // Rolled-back creations leave ids that are neither present nor pending; they stay unused.
    this.freeNodeIds.push(...this.pendingFreeNodeIds);
    this.freeRelIds.push(...this.pendingFreeRelIds);
    this.pendingFreeNodeIds = [];
    this.pendingFreeRelIds = [];
    return changes;
  }

  private node(id: number): NodeRecord {
    const r = this.nodes.get(id);
    if (r === undefined) throw new Error(`node ${id} does not exist`);
    return r;
  }

  private rel(id: number): RelRecord {
    const r = this.rels.get(id);
    if (r === undefined) throw new Error(`relationship ${id} does not exist`);
    return r;
  }

  private labelSet(label: string): Set<number> {
    let s = this.labelIndex.get(label);
    if (s === undefined) {
      s = new Set();
      this.labelIndex.set(label, s);
    }
    return s;
  }

  private unlinkNode(id: number): void {
    const record = this.node(id);
    this.nodes.delete(id);
    for (const l of record.labels) this.labelIndex.get(l)?.delete(id);
    for (const [k, v] of record.props) this.indexNode(id, record.labels, k, v, false);
    this.pendingFreeNodeIds.push(id);
  }

  private relinkNode(id: number, record: NodeRecord): void {
    this.nodes.set(id, record);
    for (const l of record.labels) this.labelSet(l).add(id);
    for (const [k, v] of record.props) this.indexNode(id, record.labels, k, v, true);
    this.pendingFreeNodeIds = this.pendingFreeNodeIds.filter((x) => x !== id);
  }

  private linkRel(id: number, record: RelRecord): void {
    this.rels.set(id, record);
    this.node(record.start).out.push(id);
    this.node(record.end).in.push(id);
    for (const [k, v] of record.props) this.relIndexes.get(indexKey(record.type, k))?.add(id, v);
    this.pendingFreeRelIds = this.pendingFreeRelIds.filter((x) => x !== id);
  }

  private unlinkRel(id: number): void {
    const record = this.rel(id);
    this.rels.delete(id);
    removeFrom(this.node(record.start).out, id);
    removeFrom(this.node(record.end).in, id);
    for (const [k, v] of record.props) this.relIndexes.get(indexKey(record.type, k))?.remove(id, v);
    this.pendingFreeRelIds.push(id);
  }

  private writeNodeProp(id: number, record: NodeRecord, key: string, value: PropertyValue | undefined): void {
    const old = record.props.get(key);
    if (old !== undefined) this.indexNode(id, record.labels, key, old, false);
    if (value === undefined) record.props.delete(key);
    else {
      record.props.set(key, value);
      this.indexNode(id, record.labels, key, value, true);
    }
  }

  private writeRelProp(id: number, record: RelRecord, key: string, value: PropertyValue | undefined): void {
    const index = this.relIndexes.get(indexKey(record.type, key));
    const old = record.props.get(key);
    if (old !== undefined) index?.remove(id, old);
    if (value === undefined) record.props.delete(key);
    else {
      record.props.set(key, value);
      index?.add(id, value);
    }
  }

  private attachLabel(id: number, record: NodeRecord, label: string): void {
    record.labels.push(label);
    this.labelSet(label).add(id);
    for (const [k, v] of record.props) this.nodeIndexes.get(indexKey(label, k))?.add(id, v);
  }

  private detachLabel(id: number, record: NodeRecord, label: string): void {
    removeFrom(record.labels, label);
    this.labelIndex.get(label)?.delete(id);
    for (const [k, v] of record.props) this.nodeIndexes.get(indexKey(label, k))?.remove(id, v);
  }

  private indexNode(id: number, labels: readonly string[], key: string, value: PropertyValue, add: boolean): void {
    if (this.nodeIndexes.size === 0) return;
    for (const l of labels) {
      const index = this.nodeIndexes.get(indexKey(l, key));
      if (index === undefined) continue;
      if (add) index.add(id, value);
      else index.remove(id, value);
    }
  }

  private buildIndex(def: IndexDefinition): void {
    const index = new PropertyIndex();
    if (def.entity === "node") {
      for (const id of this.nodesByLabel(def.token)) {
        const v = this.node(id).props.get(def.property);
        if (v !== undefined) index.add(id, v);
      }
      this.nodeIndexes.set(indexKey(def.token, def.property), index);
    } else {
      for (const [id, r] of this.rels) {
        const v = r.props.get(def.property);
        if (r.type === def.token && v !== undefined) index.add(id, v);
      }
      this.relIndexes.set(indexKey(def.token, def.property), index);
    }
    this.indexDefs.push(def);
  }

  private removeIndex(def: IndexDefinition): void {
    const target = def.entity === "node" ? this.nodeIndexes : this.relIndexes;
    target.delete(indexKey(def.token, def.property));
    const i = this.indexDefs.findIndex((d) => d.entity === def.entity && d.token === def.token && d.property === def.property);
    if (i >= 0) this.indexDefs.splice(i, 1);
  }
}

function removeFrom<T>(list: T[], item: T): void {
  const i = list.lastIndexOf(item);
  if (i >= 0) list.splice(i, 1);
}

function moveLastTo(list: number[], position: number): void {
  const item = list.pop();
  if (item !== undefined) list.splice(position, 0, item);
}
