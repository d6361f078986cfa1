import { CypherError } from "../cypher/index.js";
import type { DatabaseService } from "../databases/service.js";
import type { DatabaseRow } from "../databases/store.js";
import { invalidInput } from "../errors/app-error.js";
import type { Executor, Store } from "../store/db.js";
import { CollectionCache } from "./collection-cache.js";
import { GraphQueryRunner, type QueryLimits, type QueryOutcome } from "./query-runner.js";
import { GraphCollectionStore } from "./store.js";

const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
// Loaded graphs kept per process; beyond it the least recently used idle ones are dropped.
const CACHED_COLLECTIONS = 64;

export function validateCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name)) {
    throw invalidInput(`Invalid collection name '${name}': use 1-64 letters, digits, '_' or '-', starting with a letter or digit`);
  }
  return name;
}

export interface DeletedDatabase {
  database: string;
  deleted: boolean;
  deleted_collections: string[];
}

/**
 * Rules of the graph area (bring-your-own-graph). A graph collection may live in any database of
 * the organization: in a graph database made by `createDatabase` (kind "graph"), or next to the
 * documents of a context database. Deleting a graph database deletes the database; for any other
 * database only its graph collections go.
 */
export class GraphAreaService {
  private readonly collections: GraphCollectionStore;
  private readonly cache = new CollectionCache(CACHED_COLLECTIONS);
  private readonly runner: GraphQueryRunner;

  constructor(
    private readonly store: Store,
    private readonly databases: DatabaseService,
    limits: QueryLimits,
  ) {
    this.collections = new GraphCollectionStore(store.backend);
    this.runner = new GraphQueryRunner(store, this.collections, this.cache, limits);
    databases.registerPurger((tx, row) => this.purge(tx, row));
    databases.registerCollectionLister((row) => (row.kind === "graph" ? this.collections.list(store.db, row.id) : Promise.resolve([])));
  }

  async createDatabase(orgId: string, name: string): Promise<DatabaseRow> {
    return this.databases.create(orgId, name, undefined, "graph");
  }

  /** Runs one query; Cypher errors (including the time budget) become 400 INVALID_INPUT with the engine's message. */
  async query(orgId: string, database: string, collection: string, query: string, params: Readonly<Record<string, unknown>>): Promise<QueryOutcome> {
    validateCollectionName(collection);
    const row = await this.databases.get(orgId, database);
    try {
      return await this.runner.run({ orgId, databaseId: row.id, name: collection }, query, params);
    } catch (err) {
      if (err instanceof CypherError) throw invalidInput(err.message);
      throw err;
    }
  }

  async listCollections(orgId: string, database: string): Promise<string[]> {
    const row = await this.databases.get(orgId, database);
    return this.collections.list(this.store.db, row.id);
  }

  /** Drops a collection; a missing one is not an error. Returns whether it existed. */
  async dropCollection(orgId: string, database: string, collection: string): Promise<boolean> {
    validateCollectionName(collection);
    const row = await this.databases.get(orgId, database);
    const entry = this.cache.entry(row.id, collection);
    return entry.exclusive(async () => {
      const dropped = await this.store.transaction((tx) => this.collections.drop(tx, row.id, collection));
      entry.discard();
      return dropped;
    });
  }

  async deleteDatabase(orgId: string, database: string): Promise<DeletedDatabase> {
    const row = await this.databases.get(orgId, database);
    if (row.kind === "graph") {
      const names = await this.collections.list(this.store.db, row.id);
      // The database's rows go with the database-deletion job (the purger below).
      await this.databases.delete(orgId, database);
      this.cache.forget(row.id);
      return { database: row.name, deleted: true, deleted_collections: names };
    }
    const names = await this.store.transaction((tx) => this.collections.dropAll(tx, row.id));
    this.cache.forget(row.id);
    return { database: row.name, deleted: false, deleted_collections: names };
  }

  counts(row: DatabaseRow): Promise<Record<string, number>> {
    return this.collections.counts(this.store.db, row.id);
  }

  private async purge(tx: Executor, row: DatabaseRow): Promise<void> {
    await this.collections.dropAll(tx, row.id);
    this.cache.forget(row.id);
  }
}
