import { MAX_PARAM_DEPTH } from "../../engines/cypher/index.js";
import type { CollectionLister, DatabaseService } from "../databases/service.js";
import type { DatabaseRow } from "../databases/store.js";
import type { ResolvedDatabase } from "../databases/tenancy.js";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { Executor, Store } from "../../platform/store/db.js";
import type { DatabaseTenancy, OrgTenancy } from "../../platform/tenancy.js";
import { OrgConcurrencyLimit } from "./org-concurrency.js";
import { nestedDeeperThan } from "./param-depth.js";
import { collectionKey, GraphQueryRunner, type QueryLimits, type QueryOutcome } from "./query-runner.js";
import { GraphCollectionStore, type GraphDatabaseScope } from "./store.js";
import { QueryWorkerPool } from "./worker-pool.js";

const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function validateCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name)) {
    throw invalidInput(`Invalid collection name '${name}': use 1-64 letters, digits, '_' or '-', starting with a letter or digit`);
  }
  return name;
}

/** The graph-area scope of a database row in hand (purge, stats, collection listing). */
const scopeOfRow = (row: DatabaseRow): GraphDatabaseScope => ({ orgId: row.org_id, databaseId: row.id });

/** The graph collections of a graph database, for DatabaseService's collection listings. */
export function graphCollectionLister(store: Store): CollectionLister {
  const collections = new GraphCollectionStore(store.backend);
  return (row) => (row.kind === "graph" ? collections.list(store.db, scopeOfRow(row)) : Promise.resolve([]));
}

export interface DeletedDatabase {
  database: string;
  deleted: boolean;
  deleted_collections: string[];
}

export interface GraphAreaSettings extends QueryLimits {
  /** Query worker threads (each with its own graph cache). */
  readonly workers: number;
  /** Heap cap of one worker in MB. */
  readonly workerMemoryMb: number;
  /** Queries one organization may have in flight; beyond it 429. */
  readonly maxConcurrentPerOrg: number;
  /** Where an unexpected worker crash is reported. */
  readonly onWorkerCrash?: (err: Error) => void;
}

/**
 * Rules of the graph area (bring-your-own-graph). A graph collection may live in any database of
 * the organization: in a graph database made by `createDatabase` (kind "graph"), or next to the
 * documents of a context database. Deleting a graph database deletes the database; for any other
 * database only its graph collections go.
 */
// Heap bytes allowed per list element: an 8-byte slot, a boxed number, and the copy that `l + l` or a
// growing array makes while the old one is alive. A single allocation larger than what the heap can
// take after a GC is fatal to the whole process (V8 gives up before the worker's heap cap can
// terminate just the worker), so no one list may come near the worker's heap.
const HEAP_BYTES_PER_LIST_ELEMENT = 64;

/** The longest list a worker of this heap size builds safely. */
function listLengthForHeap(workerMemoryMb: number): number {
  return Math.floor((workerMemoryMb * 1024 * 1024) / HEAP_BYTES_PER_LIST_ELEMENT);
}

export class GraphAreaService {
  private readonly collections: GraphCollectionStore;
  private readonly pool: QueryWorkerPool;
  private readonly runner: GraphQueryRunner;
  private readonly perOrg: OrgConcurrencyLimit;

  constructor(
    private readonly store: Store,
    private readonly databases: DatabaseService,
    settings: GraphAreaSettings,
  ) {
    this.collections = new GraphCollectionStore(store.backend);
    // With two or more workers one organization never holds them all.
    const maxPerOrg = Math.min(settings.maxConcurrentPerOrg, Math.max(1, settings.workers - 1));
    this.pool = new QueryWorkerPool({ size: settings.workers, memoryMb: settings.workerMemoryMb, maxPerOrg, onCrash: settings.onWorkerCrash });
    const { maxRows, timeoutMs, maxStringLength, maxRegexWork } = settings;
    const maxListLength = Math.min(settings.maxListLength, listLengthForHeap(settings.workerMemoryMb));
    this.runner = new GraphQueryRunner(store, this.collections, this.pool, { maxRows, timeoutMs, maxListLength, maxStringLength, maxRegexWork });
    this.perOrg = new OrgConcurrencyLimit(settings.maxConcurrentPerOrg);
  }

  async createDatabase(org: OrgTenancy, name: string): Promise<DatabaseRow> {
    return this.databases.create(org.orgId, name, undefined, "graph");
  }

  /**
   * Runs one query in a query worker. Cypher errors are 400 INVALID_INPUT with the engine's
   * message; past the time budget 400 QUERY_TIMEOUT, past a size or memory budget 400
   * QUERY_TOO_LARGE; more than the organization's concurrent queries 429 RATE_LIMITED.
   */
  async query(at: DatabaseTenancy, query: string, params: Readonly<Record<string, unknown>>): Promise<QueryOutcome> {
    validateCollectionName(at.collection);
    if (nestedDeeperThan(params, MAX_PARAM_DEPTH)) {
      throw invalidInput(`Query parameters are nested too deeply (more than ${MAX_PARAM_DEPTH} levels of lists and maps)`);
    }
    return this.perOrg.run(at.orgId, () => this.runner.run(at, query, params));
  }

  async listCollections(at: GraphDatabaseScope): Promise<string[]> {
    return this.collections.list(this.store.db, at);
  }

  /** Drops a collection; a missing one is not an error. Returns whether it existed. */
  async dropCollection(at: DatabaseTenancy): Promise<boolean> {
    validateCollectionName(at.collection);
    const dropped = await this.store.transaction((tx) => this.collections.drop(tx, at));
    // Only memory: a worker's copy of a dropped collection never matches a stored head again.
    this.pool.forget(collectionKey(at.databaseId, at.collection));
    return dropped;
  }

  /** The graph area's part of DELETE /databases/collections (a CollectionPurger): 1 when a graph collection was dropped. */
  async purgeCollection(at: ResolvedDatabase): Promise<number> {
    // A name the graph area cannot hold names no graph collection.
    if (!COLLECTION_NAME.test(at.collection)) return 0;
    return (await this.dropCollection(at)) ? 1 : 0;
  }

  async deleteDatabase(at: ResolvedDatabase): Promise<DeletedDatabase> {
    const row = at.database;
    if (row.kind === "graph") {
      const names = await this.collections.list(this.store.db, at);
      // The database's rows go with the database-deletion job (the purger below).
      await this.databases.delete(at.orgId, row.name);
      this.pool.forget(collectionKey(row.id, ""));
      return { database: row.name, deleted: true, deleted_collections: names };
    }
    const names = await this.store.transaction((tx) => this.collections.dropAll(tx, at));
    this.pool.forget(collectionKey(row.id, ""));
    return { database: row.name, deleted: false, deleted_collections: names };
  }

  counts(row: DatabaseRow): Promise<Record<string, number>> {
    return this.collections.counts(this.store.db, scopeOfRow(row));
  }

  /** Stops the query workers (their cached graphs go with them). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** The graph area's part of the `database.delete` job (a DatabasePurger). */
  async purgeDatabase(tx: Executor, row: DatabaseRow): Promise<void> {
    await this.collections.dropAll(tx, scopeOfRow(row));
    this.pool.forget(collectionKey(row.id, ""));
  }
}
