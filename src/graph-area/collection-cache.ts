import type { CollectionGraph } from "./collection-graph.js";
import type { CollectionHead } from "./store.js";

/**
 * One collection's in-memory graph in this process, with the committed head it was loaded at
 * (or last wrote). The head's id tells a dropped-and-recreated collection from the old one.
 */
export class CollectionEntry {
  graph: CollectionGraph | null = null;
  head: CollectionHead | null = null;
  /** Set while a local write has changed `graph` but not committed: readers wait for it. */
  mutating: Promise<void> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /**
   * Runs fn after every earlier exclusive section of this entry: one local writer (or loader)
   * at a time per collection, so two requests of this process never race for the store's lock
   * and never replace the graph under each other.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    this.pending++;
    const run = this.tail.then(fn, fn).finally(() => this.pending--);
    this.tail = run.catch(() => undefined);
    return run;
  }

  get idle(): boolean {
    return this.pending === 0 && this.mutating === null;
  }

  /** current: the graph is the stored state; stale: reload; ahead: the head read predates our own commit. */
  freshness(stored: CollectionHead): "current" | "stale" | "ahead" {
    if (this.graph === null || this.head === null || this.head.id !== stored.id) return "stale";
    if (this.head.version === stored.version) return "current";
    return this.head.version > stored.version ? "ahead" : "stale";
  }

  install(graph: CollectionGraph, head: CollectionHead): void {
    this.graph = graph;
    this.head = head;
  }

  /** Forgets the graph; the next query loads it from the store. */
  discard(): void {
    this.graph = null;
    this.head = null;
  }
}

/**
 * Loaded collections of this process, least recently used first. Memory is bounded by the number
 * of collections, not their size: a graph is only as large as its owner made it.
 */
export class CollectionCache {
  private readonly entries = new Map<string, CollectionEntry>();

  constructor(private readonly capacity: number) {}

  entry(databaseId: string, name: string): CollectionEntry {
    const key = cacheKey(databaseId, name);
    let entry = this.entries.get(key);
    if (entry) this.entries.delete(key);
    else entry = new CollectionEntry();
    this.entries.set(key, entry);
    this.evict();
    return entry;
  }

  /** Drops the cached graph of one collection, or of every collection of a database. */
  forget(databaseId: string, name?: string): void {
    if (name !== undefined) {
      this.entries.get(cacheKey(databaseId, name))?.discard();
      return;
    }
    const prefix = cacheKey(databaseId, "");
    for (const [key, entry] of this.entries) if (key.startsWith(prefix)) entry.discard();
  }

  private evict(): void {
    if (this.entries.size <= this.capacity) return;
    let left = this.entries.size - 1; // never the entry just handed out (the last one)
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.capacity || left-- === 0) break;
      if (entry.idle) this.entries.delete(key);
    }
  }
}

const cacheKey = (databaseId: string, name: string): string => `${databaseId}\u0000${name}`;
