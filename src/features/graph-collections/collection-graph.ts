import { MemoryGraphStore, type IndexDefinition, type PropertyValue } from "../../engines/cypher/index.js";

/** Thrown by a read-only graph on the first write attempt; never reaches the client. */
export class WriteAttempted extends Error {
  override readonly name = "WriteAttempted";
}

/**
 * The cached, in-memory form of one collection. While `readOnly` is set, every write method
 * throws `WriteAttempted` before touching anything, so a query run optimistically without the
 * collection lock either completes as a pure read or aborts with the graph unchanged.
 *
 * Why a guard as well as the clause check in `write-intent.ts`: only running tells whether a
 * MERGE writes, and a MERGE that finds its pattern should stay a lock-free read. The guard is also
 * the safety net: whatever the clause check lets through as a read cannot write without the lock.
 */
export class CollectionGraph extends MemoryGraphStore {
  readOnly = false;

  private guard(): void {
    if (this.readOnly) throw new WriteAttempted("write attempted by a query run as read-only");
  }

  override createNode(labels: readonly string[], props: ReadonlyMap<string, PropertyValue>): number {
    this.guard();
    return super.createNode(labels, props);
  }

  override createRelationship(type: string, start: number, end: number, props: ReadonlyMap<string, PropertyValue>): number {
    this.guard();
    return super.createRelationship(type, start, end, props);
  }

  override deleteNode(id: number): void {
    this.guard();
    super.deleteNode(id);
  }

  override deleteRelationship(id: number): void {
    this.guard();
    super.deleteRelationship(id);
  }

  override setNodeProperty(id: number, key: string, value: PropertyValue | undefined): void {
    this.guard();
    super.setNodeProperty(id, key, value);
  }

  override setRelProperty(id: number, key: string, value: PropertyValue | undefined): void {
    this.guard();
    super.setRelProperty(id, key, value);
  }

  override addLabel(id: number, label: string): void {
    this.guard();
    super.addLabel(id, label);
  }

  override removeLabel(id: number, label: string): void {
    this.guard();
    super.removeLabel(id, label);
  }

  override createIndex(index: IndexDefinition): boolean {
    this.guard();
    return super.createIndex(index);
  }

  override dropIndex(index: IndexDefinition): boolean {
    this.guard();
    return super.dropIndex(index);
  }
}
