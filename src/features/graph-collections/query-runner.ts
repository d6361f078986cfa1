import { AppError } from "../../platform/errors/app-error.js";
import type { Store } from "../../platform/store/db.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";
import { isEmptyChangeRows, readGraphRows, writeChangeRows, type CollectionRowScope } from "./graph-row-store.js";
import type { CollectionHead } from "./rows.js";
import type { GraphCollectionStore } from "./store.js";
import type { EngineLimits, RenderedRows, WorkerFailure, WorkerReply } from "./worker-messages.js";
import { WorkerLost, type QueryWorkerPool, type WorkerLease } from "./worker-pool.js";

export type QueryLimits = EngineLimits;
export type QueryOutcome = RenderedRows;

// Lock-free attempts before a read gives up racing concurrent writers and runs under the lock.
const OPTIMISTIC_ATTEMPTS = 4;
// A worker still busy this long after the engine's own deadline is stuck where the engine cannot
// check its budget (a pathological regular expression, say): it is terminated and replaced.
const HARD_DEADLINE_GRACE_MS = 1_000;

export const collectionKey = (databaseId: string, name: string): string => `${databaseId}\u0000${name}`;

const rowScopeOf = (at: DatabaseTenancy, collectionId: string): CollectionRowScope => ({ orgId: at.orgId, databaseId: at.databaseId, collectionId });

/** A failure inside a worker, as the error the client gets. */
function failureError(f: WorkerFailure): Error {
  switch (f.kind) {
    case "timeout":
      return new AppError("QUERY_TIMEOUT", f.message);
    case "too-large":
      return new AppError("QUERY_TOO_LARGE", f.message);
    case "invalid":
      return new AppError("INVALID_INPUT", f.message);
    case "internal":
      return new Error(f.message);
  }
}

/**
 * Runs Cypher against a collection with the stored graph as the source of truth. The engine and
 * the cached graphs live in query workers (see QueryWorkerPool); this class does the store I/O
 * and tells a worker which committed head is current:
 *
 * - Every attempt first reads the collection's committed head (id, version). A worker whose copy
 *   is behind (another process or worker wrote, or the collection was dropped and re-created)
 *   answers `stale` and is sent the stored state read in a snapshot transaction.
 * - Reads run in the worker as read-only runs; a write attempt (a MERGE that found nothing)
 *   aborts untouched and the query goes to the write path, as does a query with an update clause.
 * - Writes run first on the worker's current copy without any store lock; then one transaction
 *   locks the collection row and, if the head is still the one the query ran at, writes the change
 *   rows and bumps the version. If another writer got in between, the worker drops its changes
 *   and the query is re-run under the lock. A slow write therefore holds no store lock while it
 *   computes, except on that contended retry.
 * - A failure after the worker applied changes (store error, worker death) makes the worker drop
 *   its copy (or the worker is gone), so stored and cached graphs never disagree.
 */
export class GraphQueryRunner {
  constructor(
    private readonly store: Store,
    private readonly collections: GraphCollectionStore,
    private readonly pool: QueryWorkerPool,
    private readonly limits: QueryLimits,
    private readonly now: () => number = Date.now,
  ) {}

  async run(scope: DatabaseTenancy, query: string, params: Readonly<Record<string, unknown>>): Promise<QueryOutcome> {
    const key = collectionKey(scope.databaseId, scope.collection);
    const lease = await this.pool.acquire(scope.orgId, key);
    try {
      return await this.runLeased(lease, key, scope, query, params);
    } finally {
      lease.release();
    }
  }

  private async runLeased(
    lease: WorkerLease,
    key: string,
    scope: DatabaseTenancy,
    query: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<QueryOutcome> {
    for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
      const stored = await this.collections.head(this.store.reader, scope);
      const reply = await this.execute(lease, key, stored, false, query, params);
      if (reply.type === "result") return reply.rows;
      if (reply.type === "stale") await this.reload(lease, key, scope);
      else if (reply.type === "needs-write") {
        const written = await this.optimisticWrite(lease, key, scope, query, params);
        return written ?? (await this.lockedWrite(lease, key, scope, query, params));
      } else if (reply.type !== "ahead") throw unexpected(reply);
    }
    return this.lockedWrite(lease, key, scope, query, params);
  }

  /**
   * The rows when the write committed at the head it ran at (or changed nothing); null when
   * another writer got in first: then it runs under the lock.
   */
  private async optimisticWrite(
    lease: WorkerLease,
    key: string,
    scope: DatabaseTenancy,
    query: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<QueryOutcome | null> {
    let base = await this.collections.head(this.store.reader, scope);
    let reply = await this.execute(lease, key, base, true, query, params);
    if (reply.type === "stale") {
      await this.reload(lease, key, scope);
      base = await this.collections.head(this.store.reader, scope);
      reply = await this.execute(lease, key, base, true, query, params);
    }
    if (reply.type === "stale") return null;
    if (reply.type !== "changes") throw unexpected(reply);
    const { changes, rows } = reply;
    if (isEmptyChangeRows(changes)) {
      lease.post({ type: "settle", key, head: base });
      return rows;
    }
    // Run on a never-written collection (base null), the changes still apply if the locked
    // collection is empty, which version 0 means (created by this transaction, or by a write that
    // changed nothing).
    const ranAt = base;
    const unchanged = (locked: CollectionHead): boolean => (ranAt === null ? locked.version === 0 : locked.id === ranAt.id && locked.version === ranAt.version);
    let head: CollectionHead | null = null;
    try {
      head = await this.store.transaction(async (tx) => {
        const locked = await this.collections.lockForWrite(tx, scope, this.now());
        if (!unchanged(locked)) return null;
        await writeChangeRows(tx, this.store.backend, rowScopeOf(scope, locked.id), changes);
        const next = { id: locked.id, version: locked.version + 1 };
        await this.collections.setVersion(tx, scope, next.id, next.version);
        return next;
      });
    } finally {
      lease.post({ type: "settle", key, head });
    }
    if (head !== null) lease.remember(key);
    return head === null ? null : rows;
  }

  /** The write under the collection lock: the worker's copy is brought to the locked head first. */
  private async lockedWrite(
    lease: WorkerLease,
    key: string,
    scope: DatabaseTenancy,
    query: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<QueryOutcome> {
    let dirty = false;
    try {
      const { rows, head } = await this.store.transaction(async (tx) => {
        let head = await this.collections.lockForWrite(tx, scope, this.now());
        let reply = await this.execute(lease, key, head, true, query, params);
        if (reply.type === "stale") {
          await this.load(lease, tx, key, scope, head);
          reply = await this.execute(lease, key, head, true, query, params);
        }
        if (reply.type !== "changes") throw unexpected(reply);
        dirty = true;
        if (!isEmptyChangeRows(reply.changes)) {
          await writeChangeRows(tx, this.store.backend, rowScopeOf(scope, head.id), reply.changes);
          head = { id: head.id, version: head.version + 1 };
          await this.collections.setVersion(tx, scope, head.id, head.version);
        }
        return { rows: reply.rows, head };
      });
      lease.post({ type: "settle", key, head });
      dirty = false;
      return rows;
    } finally {
      if (dirty) lease.post({ type: "settle", key, head: null });
    }
  }

  /** One run in the worker; failures (including the worker's death) become the client's error. */
  private async execute(
    lease: WorkerLease,
    key: string,
    head: CollectionHead | null,
    write: boolean,
    query: string,
    params: Readonly<Record<string, unknown>>,
  ): Promise<WorkerReply> {
    let reply: WorkerReply;
    try {
      reply = await lease.call({ type: "run", key, head, write, query, params, limits: this.limits }, this.limits.timeoutMs + HARD_DEADLINE_GRACE_MS);
    } catch (err) {
      if (err instanceof WorkerLost) throw failureError(err.failure);
      throw err;
    }
    if (reply.type === "failed") throw failureError(reply.failure);
    return reply;
  }

  private reload(lease: WorkerLease, key: string, scope: DatabaseTenancy): Promise<void> {
    return this.store.snapshot(async (tx) => {
      const head = await this.collections.head(tx, scope);
      if (head !== null) await this.load(lease, tx, key, scope, head);
    });
  }

  /** Streams the stored state of a collection into the worker; the caller's transaction makes it one state. */
  private async load(lease: WorkerLease, tx: Parameters<typeof readGraphRows>[0], key: string, scope: DatabaseTenancy, head: CollectionHead): Promise<void> {
    await this.expectDone(lease, lease.call({ type: "load-begin", key, head }));
    await readGraphRows(tx, rowScopeOf(scope, head.id), {
      nodes: async (rows) => lease.post({ type: "load-nodes", rows }),
      relationships: async (rows) => lease.post({ type: "load-relationships", rows }),
      indexes: async (defs) => this.expectDone(lease, lease.call({ type: "load-end", indexes: defs })),
    });
    lease.remember(key);
  }

  private async expectDone(_lease: WorkerLease, call: Promise<WorkerReply>): Promise<void> {
    let reply: WorkerReply;
    try {
      reply = await call;
    } catch (err) {
      if (err instanceof WorkerLost) throw failureError(err.failure);
      throw err;
    }
    if (reply.type === "failed") throw failureError(reply.failure);
    if (reply.type !== "done") throw unexpected(reply);
  }
}

function unexpected(reply: WorkerReply): Error {
  return new Error(`unexpected reply '${reply.type}' from a graph query worker`);
}
