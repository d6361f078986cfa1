import { sql, type RawBuilder, type SqlBool, type Updateable } from "kysely";
import type { Executor } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import type { ConnectorObjectsTable, ConnectorResourcesTable, ConnectorsTable } from "./rows.js";

export type ConnectorRow = ConnectorsTable;
export type ResourceRow = ConnectorResourcesTable;
export type ObjectRow = ConnectorObjectsTable;

/**
 * A run whose job is gone: not idle, and no queued or running `connector.sync` job carries its
 * run id (every job of a run has the dedupe key `connector-sync:<run id>:...`). A job whose
 * worker died is still running with an expired lease: the queue hands it out again after
 * JOB_LEASE_MS and the run resumes from its checkpoint, so only a dead-lettered or lost job
 * makes a run orphaned.
 */
const orphanedRun = (table: string): RawBuilder<SqlBool> => {
  const t = sql.table(table);
  return sql<SqlBool>`(${t}.sync_state <> 'idle' AND NOT EXISTS (
    SELECT 1 FROM jobs j WHERE j.kind = 'connector.sync' AND j.status IN ('queued', 'running')
      AND j.dedupe_key LIKE ('connector-sync:' || ${t}.run_id || ':%')))`;
};

/** The organization a connector row belongs to: the tenancy of its job's and scheduler's work. */
export const orgOf = (row: Pick<ConnectorRow, "org_id">): OrgTenancy => ({ orgId: row.org_id });

/**
 * Connectors, their resources and their object ledger. One SQL implementation serves both
 * backends. Every query names the organization; the two that span organizations on purpose
 * (the sync job's first read, the scheduler pass) say so in their names.
 */
export class ConnectorStore {
  constructor(private readonly db: Executor) {}

  async insert(row: ConnectorRow): Promise<void> {
    await this.db.insertInto("connectors").values(row).execute();
  }

  get(org: OrgTenancy, id: string): Promise<ConnectorRow | undefined> {
    return this.db.selectFrom("connectors").selectAll().where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
  }

  /**
   * A connector by id whatever its organization: the `connector.sync` job carries only the
   * connector and run ids; the row names the organization every later query is scoped by.
   */
  findForJobAcrossOrganizations(id: string): Promise<ConnectorRow | undefined> {
    return this.db.selectFrom("connectors").selectAll().where("id", "=", id).executeTakeFirst();
  }

  list(org: OrgTenancy, provider?: string): Promise<ConnectorRow[]> {
    let q = this.db.selectFrom("connectors").selectAll().where("org_id", "=", org.orgId);
    if (provider !== undefined) q = q.where("provider", "=", provider);
    return q.orderBy("created_at").orderBy("id").execute();
  }

  /** Applies `set` when the row still matches `guard` (compare-and-set); true when it did. */
  async update(
    org: OrgTenancy,
    id: string,
    set: Updateable<ConnectorsTable>,
    guard: { runId?: string | null; syncState?: ConnectorRow["sync_state"] } = {},
  ): Promise<boolean> {
    let q = this.db.updateTable("connectors").set(set).where("org_id", "=", org.orgId).where("id", "=", id);
    if (guard.runId !== undefined) q = guard.runId === null ? q.where("run_id", "is", null) : q.where("run_id", "=", guard.runId);
    if (guard.syncState !== undefined) q = q.where("sync_state", "=", guard.syncState);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Starts a run when the connector is free: idle, not paused, not waiting for credentials, or
   * (with `takeOrphaned`) when its run lost its job. True when this call claimed it.
   */
  async claimRun(org: OrgTenancy, id: string, runId: string, reconcile: boolean, at: number, takeOrphaned: boolean): Promise<boolean> {
    const res = await this.db
      .updateTable("connectors")
      .set({ sync_state: "queued", run_id: runId, run_reconcile: reconcile ? 1 : 0, sync_heartbeat_at: at, updated_at: at })
      .where("org_id", "=", org.orgId)
      .where("id", "=", id)
      .where((eb) =>
        takeOrphaned
          ? eb.or([eb.and([eb("sync_state", "=", "idle"), eb("paused", "=", 0), eb("needs_reauth", "=", 0)]), orphanedRun("connectors")])
          : eb.and([eb("sync_state", "=", "idle"), eb("paused", "=", 0), eb("needs_reauth", "=", 0)]),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async addDispatched(org: OrgTenancy, id: string, runId: string, count: number, at: number): Promise<void> {
    await this.db
      .updateTable("connectors")
      .set({ documents_dispatched: sql<number>`documents_dispatched + ${count}`, sync_heartbeat_at: at })
      .where("org_id", "=", org.orgId)
      .where("id", "=", id)
      .where("run_id", "=", runId)
      .execute();
  }

  async delete(org: OrgTenancy, id: string): Promise<void> {
    await this.db.deleteFrom("connectors").where("org_id", "=", org.orgId).where("id", "=", id).execute();
  }

  /**
   * Connectors whose scheduled time has come (idle, not paused, not waiting for new
   * credentials, with resources), plus runs whose job is gone (see orphanedRun), of every
   * organization: the scheduler pass is one system-wide job.
   */
  async dueAcrossOrganizations(now: number, limit: number): Promise<ConnectorRow[]> {
    return this.db
      .selectFrom("connectors as c")
      .selectAll("c")
      .where((eb) =>
        eb.or([
          eb.and([eb("c.sync_state", "=", "idle"), eb("c.paused", "=", 0), eb("c.needs_reauth", "=", 0), eb("c.next_sync_at", "<=", now)]),
          orphanedRun("c"),
        ]),
      )
      .where((eb) =>
        eb.exists(
          eb.selectFrom("connector_resources as r").select("r.resource_id").whereRef("r.connector_id", "=", "c.id").whereRef("r.org_id", "=", "c.org_id"),
        ),
      )
      .orderBy("c.next_sync_at")
      .limit(limit)
      .execute();
  }

  listResources(org: OrgTenancy, connectorId: string): Promise<ResourceRow[]> {
    return this.db
      .selectFrom("connector_resources")
      .selectAll()
      .where("org_id", "=", org.orgId)
      .where("connector_id", "=", connectorId)
      .orderBy("created_at")
      .orderBy("resource_id")
      .execute();
  }

  getResource(org: OrgTenancy, connectorId: string, resourceId: string): Promise<ResourceRow | undefined> {
    return this.db
      .selectFrom("connector_resources")
      .selectAll()
      .where("org_id", "=", org.orgId)
      .where("connector_id", "=", connectorId)
      .where("resource_id", "=", resourceId)
      .executeTakeFirst();
  }

  /** Inserts or replaces the resource's settings; cursor and checkpoint of an existing row are kept. */
  async upsertResource(row: ResourceRow): Promise<void> {
    await this.db
      .insertInto("connector_resources")
      .values(row)
      .onConflict((oc) =>
        oc.columns(["connector_id", "resource_id"]).doUpdateSet((eb) => ({
          resource_type: eb.ref("excluded.resource_type"),
          display_name: eb.ref("excluded.display_name"),
          collection_override: eb.ref("excluded.collection_override"),
          metadata: eb.ref("excluded.metadata"),
          additional_metadata: eb.ref("excluded.additional_metadata"),
          provider_metadata: eb.ref("excluded.provider_metadata"),
          filters: eb.ref("excluded.filters"),
          custom_instructions: eb.ref("excluded.custom_instructions"),
          acl: eb.ref("excluded.acl"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }

  async updateResource(org: OrgTenancy, connectorId: string, resourceId: string, set: Updateable<ConnectorResourcesTable>): Promise<void> {
    await this.db
      .updateTable("connector_resources")
      .set(set)
      .where("org_id", "=", org.orgId)
      .where("connector_id", "=", connectorId)
      .where("resource_id", "=", resourceId)
      .execute();
  }

  async deleteResource(org: OrgTenancy, connectorId: string, resourceId: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom("connector_resources")
      .where("org_id", "=", org.orgId)
      .where("connector_id", "=", connectorId)
      .where("resource_id", "=", resourceId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async forgetResourceObjects(org: OrgTenancy, connectorId: string, resourceId: string): Promise<void> {
    await this.db
      .deleteFrom("connector_objects")
      .where("org_id", "=", org.orgId)
      .where("connector_id", "=", connectorId)
      .where("resource_id", "=", resourceId)
      .execute();
  }

  /** Content hashes of ledger entries, by source id. */
  async hashes(org: OrgTenancy, connectorId: string, sourceIds: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < sourceIds.length; i += 500) {
      const rows = await this.db
        .selectFrom("connector_objects")
        .select(["source_id", "content_hash"])
        .where("org_id", "=", org.orgId)
        .where("connector_id", "=", connectorId)
        .where("source_id", "in", sourceIds.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.source_id, r.content_hash);
    }
    return out;
  }

  async upsertObjects(rows: readonly ObjectRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      await this.db
        .insertInto("connector_objects")
        .values(rows.slice(i, i + 200))
        .onConflict((oc) =>
          oc.columns(["connector_id", "source_id"]).doUpdateSet((eb) => ({
            resource_id: eb.ref("excluded.resource_id"),
            collection: eb.ref("excluded.collection"),
            content_hash: eb.ref("excluded.content_hash"),
            updated_at: eb.ref("excluded.updated_at"),
          })),
        )
        .execute();
    }
  }

  /** Source ids of the connector's stored items (in one collection) whose parent is one of `parentIds`. */
  async childrenOf(c: Pick<ConnectorRow, "id" | "org_id" | "database_id">, collection: string, parentIds: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < parentIds.length; i += 500) {
      const rows = await this.db
        .selectFrom("context_items")
        .select("source_id")
        .where("org_id", "=", c.org_id)
        .where("database_id", "=", c.database_id)
        .where("corpus", "=", "knowledge")
        .where("collection", "=", collection)
        .where("parent_id", "in", parentIds.slice(i, i + 500))
        .where("connector_id", "=", c.id)
        .execute();
      out.push(...rows.map((r) => r.source_id));
    }
    return out;
  }

  ledgerOf(org: OrgTenancy, connectorId: string, resourceId: string): Promise<Array<Pick<ObjectRow, "source_id" | "collection">>> {
    return this.db
      .selectFrom("connector_objects")
      .select(["source_id", "collection"])
      .where("org_id", "=", org.orgId)
      .where("connector_id", "=", connectorId)
      .where("resource_id", "=", resourceId)
      .execute();
  }

  async deleteObjects(org: OrgTenancy, connectorId: string, sourceIds: readonly string[]): Promise<void> {
    for (let i = 0; i < sourceIds.length; i += 500) {
      await this.db
        .deleteFrom("connector_objects")
        .where("org_id", "=", org.orgId)
        .where("connector_id", "=", connectorId)
        .where("source_id", "in", sourceIds.slice(i, i + 500))
        .execute();
    }
  }
}
