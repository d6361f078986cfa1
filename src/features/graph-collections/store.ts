import type { Backend, Executor } from "../../platform/store/db.js";
import { newId } from "../../platform/util/ids.js";
import { deleteGraphRows } from "./graph-rows.js";

/** The identity and committed version of a stored collection; ids are never reused by a new collection. */
export interface CollectionHead {
  readonly id: string;
  readonly version: number;
}

/** A collection as the edge resolved it: organization, database and collection name. */
export interface CollectionScope {
  readonly orgId: string;
  readonly databaseId: string;
  readonly name: string;
}

/**
 * The collection rows of the graph area (`graph_collections`). Locking is where the backends
 * differ: PostgreSQL locks the collection row FOR UPDATE; SQLite has one writer at a time anyway
 * and the caller's transaction is BEGIN IMMEDIATE.
 */
export class GraphCollectionStore {
  constructor(private readonly backend: Backend) {}

  /** The committed head, without locking: what every query checks against its cache. */
  async head(db: Executor, databaseId: string, name: string): Promise<CollectionHead | null> {
    const row = await db
      .selectFrom("graph_collections")
      .select(["id", "version"])
      .where("database_id", "=", databaseId)
      .where("name", "=", name)
      .executeTakeFirst();
    return row ? { id: row.id, version: Number(row.version) } : null;
  }

  /** Creates the collection if needed (first write) and locks it against other writers. */
  async lockForWrite(tx: Executor, scope: CollectionScope, at: number): Promise<CollectionHead> {
    await tx
      .insertInto("graph_collections")
      .values({ id: newId(), org_id: scope.orgId, database_id: scope.databaseId, name: scope.name, version: 0, created_at: at })
      .onConflict((oc) => oc.columns(["database_id", "name"]).doNothing())
      .execute();
    const head = await this.locked(tx, scope.databaseId, scope.name);
    if (!head) throw new Error(`graph collection '${scope.name}' vanished while being locked`);
    return head;
  }

  /** Locks an existing collection against other writers (and droppers) until the transaction ends. */
  async locked(tx: Executor, databaseId: string, name: string): Promise<CollectionHead | null> {
    if (this.backend === "sqlite") return this.head(tx, databaseId, name);
    const row = await tx
      .selectFrom("graph_collections")
      .select(["id", "version"])
      .where("database_id", "=", databaseId)
      .where("name", "=", name)
      .forUpdate()
      .executeTakeFirst();
    return row ? { id: row.id, version: Number(row.version) } : null;
  }

  async setVersion(tx: Executor, id: string, version: number): Promise<void> {
    await tx.updateTable("graph_collections").set({ version }).where("id", "=", id).execute();
  }

  async list(db: Executor, databaseId: string): Promise<string[]> {
    const rows = await db.selectFrom("graph_collections").select("name").where("database_id", "=", databaseId).orderBy("created_at").orderBy("name").execute();
    return rows.map((r) => r.name);
  }

  /** Drops one collection with all of its rows; false when it did not exist. */
  async drop(tx: Executor, databaseId: string, name: string): Promise<boolean> {
    const head = await this.locked(tx, databaseId, name);
    if (!head) return false;
    await deleteGraphRows(tx, head.id);
    await tx.deleteFrom("graph_collections").where("id", "=", head.id).execute();
    return true;
  }

  /** Drops every collection of a database; returns their names. */
  async dropAll(tx: Executor, databaseId: string): Promise<string[]> {
    const names = await this.list(tx, databaseId);
    for (const name of names) await this.drop(tx, databaseId, name);
    return names;
  }

  async counts(db: Executor, databaseId: string): Promise<Record<string, number>> {
    // Through the collection ids, so the primary keys' leading column serves the counts.
    const collections = db.selectFrom("graph_collections").select("id").where("database_id", "=", databaseId);
    const count = async (table: "graph_nodes" | "graph_relationships"): Promise<number> => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("collection_id", "in", collections)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    };
    return {
      graph_collections: (await this.list(db, databaseId)).length,
      graph_nodes: await count("graph_nodes"),
      graph_relationships: await count("graph_relationships"),
    };
  }
}
