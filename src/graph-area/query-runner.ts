import { executeCypher, renderRows, type JsonValue } from "../cypher/index.js";
import type { Store } from "../store/db.js";
import type { CollectionCache, CollectionEntry } from "./collection-cache.js";
import { CollectionGraph, WriteAttempted } from "./collection-graph.js";
import { isEmptyChangeSet, loadGraph, writeChangeSet } from "./graph-rows.js";
import type { CollectionHead, CollectionScope, GraphCollectionStore } from "./store.js";
import { certainlyWrites } from "./write-intent.js";

export interface QueryLimits {
  /** Rows returned at most; the rest are dropped (documented cap). */
  readonly maxRows: number;
  /** Engine time budget per run; past it the query is rolled back and answered 400. */
  readonly timeoutMs: number;
}

export interface QueryOutcome {
  readonly rows: Record<string, JsonValue>[];
  readonly truncated: boolean;
}

// Lock-free attempts before a read gives up racing concurrent writers and runs under the lock.
const OPTIMISTIC_ATTEMPTS = 4;

/**
 * Runs Cypher against a collection with the stored graph as the source of truth and a cached
 * in-memory copy per process:
 *
 * - Every query first reads the collection's committed head (id, version). A cache that is
 *   behind (another process wrote, or the collection was dropped and re-created) is reloaded in
 *   a snapshot transaction: one consistent state, without blocking anyone's writes.
 * - Queries with an update clause (see `certainlyWrites`) go straight to the write path. Others
 *   run optimistically as reads on the cached graph, without the write lock; a write attempt
 *   (a MERGE that found nothing) aborts the run untouched (see `CollectionGraph`) and the query
 *   is re-run as a write: one store transaction locks the collection row, re-checks the version,
 *   runs the query, writes its change set, bumps the version and commits.
 * - An engine error is rolled back by the engine and by the transaction. A store error after the
 *   engine succeeded cannot be undone in memory any more (the engine has already committed its
 *   undo log), so the cached graph is discarded and the next query reloads the committed state.
 *   Either way the stored and cached graphs never disagree.
 */
export class GraphQueryRunner {
  constructor(
    private readonly store: Store,
    private readonly collections: GraphCollectionStore,
    private readonly cache: CollectionCache,
    private readonly limits: QueryLimits,
    private readonly now: () => number = Date.now,
  ) {}

  async run(scope: CollectionScope, query: string, params: Readonly<Record<string, unknown>>): Promise<QueryOutcome> {
    const entry = this.cache.entry(scope.databaseId, scope.name);
    const optimisticAttempts = certainlyWrites(query) ? 0 : OPTIMISTIC_ATTEMPTS;
    for (let attempt = 0; attempt < optimisticAttempts; attempt++) {
      if (entry.mutating) await entry.mutating;
      const stored = await this.collections.head(this.store.db, scope.databaseId, scope.name);
      // A local writer may have started while the head was read; its changes are not committed.
      if (entry.mutating) continue;
      if (stored === null) entry.discard();
      // Never written (or dropped): reads see an empty graph and create nothing.
      const freshness = stored === null ? "current" : entry.freshness(stored);
      const graph = stored === null ? new CollectionGraph() : entry.graph;
      if (freshness !== "current" || graph === null) {
        if (freshness === "stale") await this.reload(entry, scope);
        continue;
      }
      const outcome = this.runReadOnly(graph, query, params);
      if (outcome !== null) return outcome;
      break;
    }
    return this.write(entry, scope, query, params);
  }

  /** The query's result, or null when it tried to write (the graph is then unchanged). */
  private runReadOnly(graph: CollectionGraph, query: string, params: Readonly<Record<string, unknown>>): QueryOutcome | null {
    graph.readOnly = true;
    try {
      const result = executeCypher(graph, query, params, this.limits);
      return { rows: renderRows(graph, result.columns, result.rows), truncated: result.truncated };
    } catch (err) {
      if (err instanceof WriteAttempted) return null;
      throw err;
    } finally {
      graph.readOnly = false;
    }
  }

  private reload(entry: CollectionEntry, scope: CollectionScope): Promise<void> {
    return entry.exclusive(() =>
      this.store.snapshot(async (tx) => {
        const head = await this.collections.head(tx, scope.databaseId, scope.name);
        if (head === null) entry.discard();
        else if (entry.freshness(head) !== "current") entry.install(await loadGraph(tx, head.id), head);
      }),
    );
  }

  private write(entry: CollectionEntry, scope: CollectionScope, query: string, params: Readonly<Record<string, unknown>>): Promise<QueryOutcome> {
    return entry.exclusive(async () => {
      let release = (): void => undefined;
      let dirty = false;
      try {
        const { outcome, head } = await this.store.transaction(async (tx) => {
          let head: CollectionHead = await this.collections.lockForWrite(tx, scope, this.now());
          if (entry.freshness(head) !== "current") entry.install(await loadGraph(tx, head.id), head);
          const graph = entry.graph;
          if (graph === null) throw new Error("graph cache lost its graph under the collection lock");
          entry.mutating = new Promise<void>((resolve) => (release = resolve));
          let result;
          try {
            result = executeCypher(graph, query, params, this.limits);
          } catch (err) {
            graph.takeChanges(); // the engine rolled back; drop the bookkeeping of what it undid
            throw err;
          }
          dirty = true;
          const outcome = { rows: renderRows(graph, result.columns, result.rows), truncated: result.truncated };
          const changes = graph.takeChanges();
          if (!isEmptyChangeSet(changes)) {
            await writeChangeSet(tx, this.store.backend, { collectionId: head.id, orgId: scope.orgId, databaseId: scope.databaseId }, graph, changes);
            head = { id: head.id, version: head.version + 1 };
            await this.collections.setVersion(tx, head.id, head.version);
          }
          return { outcome, head };
        });
        entry.head = head;
        dirty = false;
        return outcome;
      } catch (err) {
        if (dirty) entry.discard();
        throw err;
      } finally {
        entry.mutating = null;
        release();
      }
    });
  }
}
