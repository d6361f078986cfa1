import { CypherError, executeCypher, renderRows } from "../../engines/cypher/index.js";
import { CollectionGraph, WriteAttempted } from "./collection-graph.js";
import { encodeChanges, StoredGraphLoader } from "./graph-codec.js";
import type { CollectionHead } from "./rows.js";
import type { RenderedRows, WorkerFailure, WorkerReply, WorkerRequest } from "./worker-messages.js";
import { certainlyWrites } from "./write-intent.js";

/** Reads the worker's heap: how full it is (0..1). */
export type HeapUse = () => number;

// Above this share of the heap a new load first drops every other cached graph.
const LOAD_EVICTION_SHARE = 0.5;
// Above this share a running query stops with ResourceLimitError before the hard limit kills the worker.
const QUERY_STOP_SHARE = 0.85;

const UNCOMMITTED: CollectionHead = { id: "", version: 0 };

interface Entry {
  readonly graph: CollectionGraph;
  head: CollectionHead;
}

/**
 * What a query worker holds: the graphs of the collections it served, each with the committed head
 * it was loaded at (or last wrote), least recently used first. The main thread tells it which head
 * is current; a graph at another head is never queried (the main thread loads the stored state).
 */
export class WorkerGraphs {
  private readonly entries = new Map<string, Entry>();
  private loading: { key: string; head: CollectionHead; loader: StoredGraphLoader; error: Error | null } | null = null;

  constructor(
    private readonly capacity: number,
    private readonly heapUse: HeapUse,
  ) {}

  /** Handles one request; the reply (null for requests without one) never throws. */
  handle(req: WorkerRequest): WorkerReply | null {
    if (req.type === "settle") {
      const entry = this.entries.get(req.key);
      if (entry !== undefined && req.head !== null) entry.head = req.head;
      else this.entries.delete(req.key);
      return null;
    }
    if (req.type === "load-nodes" || req.type === "load-relationships") {
      const loading = this.loading;
      if (loading === null || loading.error !== null) return null;
      try {
        if (req.type === "load-nodes") loading.loader.addNodes(req.rows);
        else loading.loader.addRelationships(req.rows);
      } catch (err) {
        loading.error = err instanceof Error ? err : new Error(String(err));
      }
      return null;
    }
    if (req.type === "forget") {
      for (const key of [...this.entries.keys()]) if (key.startsWith(req.keyPrefix)) this.entries.delete(key);
      return null;
    }
    try {
      return this.answer(req);
    } catch (err) {
      return { type: "failed", id: req.id, failure: classify(err) };
    }
  }

  private answer(req: Extract<WorkerRequest, { id: number }>): WorkerReply {
    switch (req.type) {
      case "run":
        return this.run(req);
      case "load-begin":
        this.entries.delete(req.key);
        if (this.heapUse() > LOAD_EVICTION_SHARE) this.entries.clear();
        this.loading = { key: req.key, head: req.head, loader: new StoredGraphLoader(), error: null };
        return { type: "done", id: req.id };
      case "load-end": {
        const loading = this.loading;
        this.loading = null;
        if (loading === null) throw new Error("load-end without load-begin");
        if (loading.error !== null) throw loading.error;
        this.install(loading.key, { graph: loading.loader.finish(req.indexes), head: loading.head });
        return { type: "done", id: req.id };
      }
    }
  }

  private run(req: Extract<WorkerRequest, { type: "run" }>): WorkerReply {
    // Checked before freshness: a write never needs this worker's copy loaded outside the lock first.
    if (!req.write && certainlyWrites(req.query)) return { type: "needs-write", id: req.id };
    let graph: CollectionGraph;
    if (req.head === null) {
      // Never written (or dropped): an empty graph. A write on it is kept under a head no stored
      // collection has, until settle gives it the head the main thread committed it at.
      graph = new CollectionGraph();
      if (req.write) this.install(req.key, { graph, head: UNCOMMITTED });
    } else {
      const entry = this.entries.get(req.key);
      const freshness = freshnessOf(entry, req.head);
      if (entry === undefined || freshness !== "current") return { type: freshness === "ahead" && !req.write ? "ahead" : "stale", id: req.id };
      this.install(req.key, entry);
      graph = entry.graph;
    }
    const options = {
      ...req.limits,
      memoryExceeded: () => this.heapUse() > QUERY_STOP_SHARE,
    };
    if (!req.write) {
      graph.readOnly = true;
      try {
        const result = executeCypher(graph, req.query, req.params, options);
        return { type: "result", id: req.id, rows: render(graph, result) };
      } catch (err) {
        if (err instanceof WriteAttempted) return { type: "needs-write", id: req.id };
        throw err;
      } finally {
        graph.readOnly = false;
      }
    }
    let result;
    try {
      result = executeCypher(graph, req.query, req.params, options);
    } catch (err) {
      graph.takeChanges(); // the engine rolled back; drop the bookkeeping of what it undid
      throw err;
    }
    // The engine committed its undo log: if rendering fails, the changed graph must go.
    try {
      const rows = render(graph, result);
      return { type: "changes", id: req.id, rows, changes: encodeChanges(graph, graph.takeChanges()) };
    } catch (err) {
      if (req.head !== null) this.entries.delete(req.key);
      throw err;
    }
  }

  private install(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    for (const k of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(k);
    }
  }
}

function freshnessOf(entry: Entry | undefined, stored: CollectionHead): "current" | "stale" | "ahead" {
  if (entry === undefined || entry.head.id !== stored.id) return "stale";
  if (entry.head.version === stored.version) return "current";
  return entry.head.version > stored.version ? "ahead" : "stale";
}

function render(graph: CollectionGraph, result: ReturnType<typeof executeCypher>): RenderedRows {
  const rows = renderRows(graph, result.columns, result.rows);
  return { json: JSON.stringify(rows), rowCount: rows.length, truncated: result.truncated };
}

// What V8 throws when a value outgrows the stack or its own size limits: a query too large to run.
const TOO_LARGE = /call stack|invalid (string|array|typed array) length|maximum bigint size|maximum size/i;

function classify(err: unknown): WorkerFailure {
  if (err instanceof CypherError) {
    if (err.type === "TimeoutError") return { kind: "timeout", message: err.message };
    if (err.type === "ResourceLimitError") return { kind: "too-large", message: err.message };
    return { kind: "invalid", message: err.message };
  }
  if (err instanceof RangeError && TOO_LARGE.test(err.message)) {
    return { kind: "too-large", message: `query is too large or too deeply nested to run (${err.message})` };
  }
  return { kind: "internal", message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
