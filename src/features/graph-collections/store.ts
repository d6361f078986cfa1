import type { Backend, Executor } from "../../platform/store/db.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";
import { newId } from "../../platform/util/ids.js";
import { deleteGraphRows } from "./graph-row-store.js";
import type { CollectionHead } from "./rows.js";

export type { CollectionHead } from "./rows.js";

/** A database of an organization, without a collection: what listing, counting and dropping all address. */
export type GraphDatabaseScope = Pick<DatabaseTenancy, "orgId" | "databaseId">;

/**
 * The collection rows of the graph area (`graph_collections`). A collection is addressed by the
 * tenancy the edge resolved: organization, database and collection name; every query names all
 * three. Locking is where the backends differ: PostgreSQL locks the collection row FOR UPDATE;
 * SQLite has one writer at a time anyway and the caller's transaction is BEGIN IMMEDIATE.
 */
export class GraphCollectionStore {
  constructor(private readonly backend: Backend) {}

  /** The committed head, without locking: what every query checks against its cache. */
  async head(db: Executor, at: DatabaseTenancy): Promise<CollectionHead | null> {
    const row = await db
      .selectFrom("graph_collections")
      .select(["id", "version"])
      .where("org_id", "=", at.orgId)
      .where("database_id", "=", at.databaseId)
      .where("name", "=", at.collection)
      .executeTakeFirst();
    return row ? { id: row.id, version: Number(row.version) } : null;
  }

  /** Creates the collection if needed (first write) and locks it against other writers. */
  async lockForWrite(tx: Executor, at: DatabaseTenancy, now: number): Promise<CollectionHead> {
    await tx
      .insertInto("graph_collections")
      .values({ id: newId(), org_id: at.orgId, database_id: at.databaseId, name: at.collection, version: 0, created_at: now })
      .onConflict((oc) => oc.columns(["database_id", "name"]).doNothing())
      .execute();
    const head = await this.locked(tx, at);
    if (!head) throw new Error(`graph collection '${at.collection}' vanished while being locked`);
    return head;
  }

  /** Locks an existing collection against other writers (and droppers) until the transaction ends. */
  async locked(tx: Executor, at: DatabaseTenancy): Promise<CollectionHead | null> {
    if (this.backend === "sqlite") return this.head(tx, at);
    const row = await tx
      .selectFrom("graph_collections")
      .select(["id", "version"])
      .where("org_id", "=", at.orgId)
      .where("database_id", "=", at.databaseId)
      .where("name", "=", at.collection)
      .forUpdate()
      .executeTakeFirst();
    return row ? { id: row.id, version: Number(row.version) } : null;
  }

  async setVersion(tx: Executor, at: GraphDatabaseScope, id: string, version: number): Promise<void> {
    await tx.updateTable("graph_collections").set({ version }).where("org_id", "=", at.orgId).where("id", "=", id).execute();
  }

  async list(db: Executor, at: GraphDatabaseScope): Promise<string[]> {
    const rows = await db
      .selectFrom("graph_collections")
      .select("name")
      .where("org_id", "=", at.orgId)
      .where("database_id", "=", at.databaseId)
      .orderBy("created_at")
      .orderBy("name")
      .execute();
    return rows.map((r) => r.name);
  }

  /** Drops one collection with all of its rows; false when it did not exist. */
  async drop(tx: Executor, at: DatabaseTenancy): Promise<boolean> {
    const head = await this.locked(tx, at);
    if (!head) return false;
    await deleteGraphRows(tx, { orgId: at.orgId, databaseId: at.databaseId, collectionId: head.id });
    await tx.deleteFrom("graph_collections").where("org_id", "=", at.orgId).where("id", "=", head.id).execute();
    return true;
  }

  /** Drops every collection of a database; returns their names. */
  async dropAll(tx: Executor, at: GraphDatabaseScope): Promise<string[]> {
    const names = await this.list(tx, at);
    for (const collection of names) await this.drop(tx, { ...at, collection });
    return names;
  }

  async counts(db: Executor, at: GraphDatabaseScope): Promise<Record<string, number>> {
    // Through the organization's collection ids (that is the organization condition), so the
    // primary keys' leading column serves the counts without reading the rows.
    const collections = db.selectFrom("graph_collections").select("id").where("org_id", "=", at.orgId).where("database_id", "=", at.databaseId);
    const count = async (table: "graph_nodes" | "graph_relationships"): Promise<number> => {
      const row = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("collection_id", "in", collections)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    };
    return {
      graph_collections: (await this.list(db, at)).length,
      graph_nodes: await count("graph_nodes"),
      graph_relationships: await count("graph_relationships"),
    };
  }
}
