import type { Executor } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import type { WebhookDeliveriesTable, WebhookDeliveryStatus, WebhookEndpointsTable } from "./rows.js";

export type EndpointRow = WebhookEndpointsTable;
export type DeliveryRow = WebhookDeliveriesTable;

export interface AttemptUpdate {
  readonly status: WebhookDeliveryStatus;
  readonly errorCode: string;
  readonly errorMessage: string;
  readonly statusCode: number | null;
}

export interface DeliveryPage {
  readonly status?: WebhookDeliveryStatus;
  readonly limit: number;
  /** Continue after this row (newest first). */
  readonly after?: { readonly createdAt: number; readonly id: string };
}

/**
 * Webhook registrations and delivery records. One SQL implementation serves both backends.
 * Every query names the organization; the two that span organizations on purpose (the delivery
 * job's first read, the retention prune) say so in their names.
 */
export class WebhookStore {
  constructor(private readonly db: Executor) {}

  getEndpoint(org: OrgTenancy): Promise<EndpointRow | undefined> {
    return this.db.selectFrom("webhook_endpoints").selectAll().where("org_id", "=", org.orgId).executeTakeFirst();
  }

  /** Inserts or replaces the organization's registration (`row.org_id` is the organization's). */
  async upsertEndpoint(row: EndpointRow, keepSecret: boolean): Promise<void> {
    await this.db
      .insertInto("webhook_endpoints")
      .values(row)
      .onConflict((oc) =>
        oc.column("org_id").doUpdateSet((eb) => ({
          url: eb.ref("excluded.url"),
          event_types: eb.ref("excluded.event_types"),
          updated_at: eb.ref("excluded.updated_at"),
          ...(keepSecret ? {} : { signing_secret: eb.ref("excluded.signing_secret") }),
        })),
      )
      .execute();
  }

  async setSecret(org: OrgTenancy, sealed: string | null, at: number): Promise<boolean> {
    const res = await this.db
      .updateTable("webhook_endpoints")
      .set({ signing_secret: sealed, updated_at: at })
      .where("org_id", "=", org.orgId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async deleteEndpoint(org: OrgTenancy): Promise<boolean> {
    const res = await this.db.deleteFrom("webhook_endpoints").where("org_id", "=", org.orgId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async insertDelivery(row: DeliveryRow): Promise<void> {
    await this.db.insertInto("webhook_deliveries").values(row).execute();
  }

  /** One of the organization's deliveries by id. */
  getDelivery(org: OrgTenancy, id: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom("webhook_deliveries").selectAll().where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
  }

  /**
   * A delivery by id whatever its organization: the `webhook.deliver` job carries only the
   * delivery id, and the row it finds names the organization that every later query is scoped by.
   */
  findDeliveryForJobAcrossOrganizations(id: string): Promise<DeliveryRow | undefined> {
    return this.db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id).executeTakeFirst();
  }

  listDeliveries(org: OrgTenancy, page: DeliveryPage): Promise<DeliveryRow[]> {
    let q = this.db.selectFrom("webhook_deliveries").selectAll().where("org_id", "=", org.orgId);
    if (page.status) q = q.where("status", "=", page.status);
    const after = page.after;
    if (after) {
      q = q.where((eb) => eb.or([eb("created_at", "<", after.createdAt), eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)])]));
    }
    return q.orderBy("created_at", "desc").orderBy("id", "desc").limit(page.limit).execute();
  }

  /**
   * Records the outcome of attempt number `attempt`. Fenced on the previous attempt count
   * and the pending state, so a repeated or stale job cannot record an attempt twice.
   */
  async recordAttempt(org: OrgTenancy, id: string, attempt: number, update: AttemptUpdate, at: number): Promise<boolean> {
    const res = await this.db
      .updateTable("webhook_deliveries")
      .set({
        attempts: attempt,
        status: update.status,
        error_code: update.errorCode,
        error_message: update.errorMessage.slice(0, 2000),
        last_status_code: update.statusCode,
        updated_at: at,
        completed_at: update.status === "pending" ? null : at,
      })
      .where("org_id", "=", org.orgId)
      .where("id", "=", id)
      .where("attempts", "=", attempt - 1)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /**
   * Deletes finished (completed or failed) deliveries last updated before `before`, of every
   * organization: the retention prune is one system-wide pass.
   */
  async pruneFinishedAcrossOrganizations(before: number): Promise<number> {
    const res = await this.db.deleteFrom("webhook_deliveries").where("status", "<>", "pending").where("updated_at", "<", before).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** A finished delivery becomes pending again with `extraAttempts` more attempts allowed. */
  async rearm(org: OrgTenancy, id: string, extraAttempts: number, at: number): Promise<DeliveryRow | undefined> {
    const res = await this.db
      .updateTable("webhook_deliveries")
      .set((eb) => ({ status: "pending", max_attempts: eb("attempts", "+", extraAttempts), updated_at: at, completed_at: null }))
      .where("org_id", "=", org.orgId)
      .where("id", "=", id)
      .where("status", "<>", "pending")
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0 ? this.getDelivery(org, id) : undefined;
  }
}
