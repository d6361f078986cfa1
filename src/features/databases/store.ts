import { sql } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import type { DatabaseKind, DatabaseStatus } from "./database-types.js";
import type { DatabasesTable } from "./rows.js";
import { statementTemplate } from "../../platform/store/statement-templates.js";

export type DatabaseRow = DatabasesTable;

/**
 * Not being deleted, written as SQL rather than a bound value. The partial index
 * `databases_live_name` (org_id, name) WHERE status <> 'deleting' serves a statement only when its
 * condition is proven for the value; SQLite proves it for a bound value by compiling the statement
 * again each time the value is bound (every request read the database this way: 0.15 ms a lookup
 * in the service instead of a few microseconds).
 */
const live = sql<boolean>`status <> 'deleting'`;

/** A live database by name: every data request reads it; compiled once (statement-templates.ts). */
export const liveDatabaseQuery = (db: Executor, v: { orgId: string; name: string }) =>
  db.selectFrom("databases").selectAll().where("org_id", "=", v.orgId).where("name", "=", v.name).where(live);
const liveByName = statementTemplate(() => "", liveDatabaseQuery);

/** Databases and collections of one organization. One SQL implementation serves both backends. */
export class DatabaseStore {
  constructor(private readonly db: Executor) {}

  async insert(row: DatabaseRow): Promise<void> {
    await this.db.insertInto("databases").values(row).execute();
  }

  /** The live (not being deleted) database with this name in the organization. */
  async findLive(orgId: string, name: string): Promise<DatabaseRow | undefined> {
    return (await liveByName.run(this.db, { orgId, name }))[0];
  }

  async getById(org: OrgTenancy, id: string): Promise<DatabaseRow | undefined> {
    return this.db.selectFrom("databases").selectAll().where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
  }

  /** A database by id whatever its organization: for its own jobs (provision, purge), whose payload names the id only. */
  async getByIdAcrossOrganizations(id: string): Promise<DatabaseRow | undefined> {
    return this.db.selectFrom("databases").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async listLive(orgId: string, kind?: DatabaseKind): Promise<DatabaseRow[]> {
    let q = this.db.selectFrom("databases").selectAll().where("org_id", "=", orgId).where(live);
    if (kind) q = q.where("kind", "=", kind);
    return q.orderBy("created_at").orderBy("name").execute();
  }

  /**
   * Serialises database creation in one organization until the transaction ends, so the count
   * of its databases and the insert after it cannot race with a creation in another process or
   * connection (under READ COMMITTED both would pass the count). SQLite's BEGIN IMMEDIATE holds
   * the database's write lock already.
   */
  async lockCreation(orgId: string, backend: Backend): Promise<void> {
    if (backend !== "postgres") return;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`databases:${orgId}`}, 0))`.execute(this.db);
  }

  async countLive(orgId: string): Promise<number> {
    const row = await this.db
      .selectFrom("databases")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("org_id", "=", orgId)
      .where(live)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async setStatus(id: string, status: DatabaseStatus, at: number, error: string | null = null): Promise<boolean> {
    const res = await this.db.updateTable("databases").set({ status, updated_at: at, error }).where("id", "=", id).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async setSchema(id: string, schemaJson: string, at: number): Promise<void> {
    await this.db.updateTable("databases").set({ metadata_schema: schemaJson, updated_at: at }).where("id", "=", id).execute();
  }

  async deleteRow(id: string): Promise<void> {
    await this.db.deleteFrom("databases").where("id", "=", id).execute();
  }

  /** Creates the collection if it does not exist yet (collections appear on first use). */
  async ensureCollection(database: Pick<DatabaseRow, "id" | "org_id">, name: string, at: number): Promise<void> {
    await this.db
      .insertInto("collections")
      .values({ org_id: database.org_id, database_id: database.id, name, created_at: at })
      .onConflict((oc) => oc.columns(["database_id", "name"]).doNothing())
      .execute();
  }

  async deleteCollection(database: Pick<DatabaseRow, "id" | "org_id">, name: string): Promise<void> {
    await this.db.deleteFrom("collections").where("org_id", "=", database.org_id).where("database_id", "=", database.id).where("name", "=", name).execute();
  }

  async listCollections(databaseId: string): Promise<string[]> {
    const rows = await this.db.selectFrom("collections").select("name").where("database_id", "=", databaseId).orderBy("created_at").orderBy("name").execute();
    return rows.map((r) => r.name);
  }
}
