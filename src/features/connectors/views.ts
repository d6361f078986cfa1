import type { ConnectorRow, ResourceRow } from "./store.js";

export type Lifecycle = "reconnect" | "paused" | "pending_setup" | "syncing" | "ingesting" | "active";

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const json = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));

/**
 * The derived lifecycle; the first rule that matches wins: needs_reauth -> reconnect, paused ->
 * paused, no resources -> pending_setup, a run in progress -> syncing, a resource never pulled
 * (empty provider_cursor) -> ingesting, otherwise active.
 */
function lifecycleOf(c: ConnectorRow, resources: readonly ResourceRow[]): Lifecycle {
  if (c.needs_reauth === 1) return "reconnect";
  if (c.paused === 1) return "paused";
  if (resources.length === 0) return "pending_setup";
  if (c.sync_state === "running") return "syncing";
  if (resources.some((r) => r.provider_cursor === "")) return "ingesting";
  return "active";
}

/** The connector record on the wire (credentials are never part of it). */
export function connectorView(c: ConnectorRow, resources: readonly ResourceRow[]): Record<string, unknown> {
  return {
    connector_id: c.id,
    provider: c.provider,
    name: c.name,
    database: c.database_name,
    collection: c.collection,
    tenant_id: c.database_name,
    sub_tenant_id: c.collection,
    provider_account_scope: c.provider_account_scope,
    auth_type: c.auth_type,
    credential_ref: `connector:${c.id}`,
    org_id: c.org_id,
    status: "active",
    lifecycle: lifecycleOf(c, resources),
    sync_status: c.sync_state === "running" ? "running" : c.sync_state === "queued" ? "queued" : "idle",
    sync_engine: "classic",
    sync_interval_seconds: c.sync_interval_seconds,
    next_sync_at: c.needs_reauth === 1 || c.paused === 1 ? null : iso(c.next_sync_at),
    last_successful_sync_at: iso(c.last_successful_sync_at),
    last_attempted_sync_at: iso(c.last_attempted_sync_at),
    last_error: c.last_error,
    last_error_code: c.last_error_code,
    documents_dispatched: Number(c.documents_dispatched),
    sync_cycles_completed: c.sync_cycles_completed,
    active_resource_count: resources.length,
    resources_pending_first_sync: resources.filter((r) => r.provider_cursor === "").length,
    custom_instructions: c.custom_instructions,
    needs_reauth: c.needs_reauth === 1,
    needs_reauth_at: iso(c.needs_reauth_at),
    needs_reauth_reason: c.needs_reauth_reason,
    paused: c.paused === 1,
    paused_at: iso(c.paused_at),
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}

export function resourceView(r: ResourceRow): Record<string, unknown> {
  return {
    connector_id: r.connector_id,
    resource_id: r.resource_id,
    resource_type: r.resource_type,
    display_name: r.display_name,
    status: r.status,
    provider_cursor: r.provider_cursor,
    collection_override: r.collection_override,
    sub_tenant_id_override: r.collection_override,
    database_override: null,
    tenant_id_override: null,
    metadata: json(r.metadata),
    additional_metadata: json(r.additional_metadata),
    provider_metadata: json(r.provider_metadata),
    filters: json(r.filters),
    ...(r.custom_instructions !== null ? { custom_instructions: r.custom_instructions } : {}),
    ...(r.acl !== null ? { acl: json(r.acl) } : {}),
    backfill_status: r.provider_cursor === "" ? "pending" : "complete",
  };
}

/** GET /connectors/{id}/status: overall health and one line per resource. */
export function statusView(c: ConnectorRow, resources: readonly ResourceRow[], resourceAccessAction: string): Record<string, unknown> {
  const failed = resources.filter((r) => r.status === "failed").length;
  const status =
    c.paused === 1
      ? "paused"
      : c.needs_reauth === 1
        ? "failed"
        : c.sync_state !== "idle"
          ? "checking"
          : c.last_error !== "" || failed > 0
            ? failed === resources.length && failed > 0
              ? "failed"
              : "degraded"
            : "healthy";
  return {
    connector_id: c.id,
    provider: c.provider,
    status,
    lifecycle: lifecycleOf(c, resources),
    sync_status: c.sync_state === "running" ? "running" : c.sync_state === "queued" ? "queued" : "idle",
    last_successful_sync_at: iso(c.last_successful_sync_at),
    last_attempted_sync_at: iso(c.last_attempted_sync_at),
    next_sync_at: c.needs_reauth === 1 || c.paused === 1 ? null : iso(c.next_sync_at),
    error: c.needs_reauth === 1 ? c.needs_reauth_reason : c.last_error,
    error_code: c.needs_reauth === 1 ? "REAUTH_REQUIRED" : c.last_error_code,
    resources: resources.map((r) => ({
      resource_id: r.resource_id,
      display_name: r.display_name,
      status: r.checked_at === null ? "unknown" : r.status === "failed" ? "failed" : r.last_row_count === 0 ? "empty" : "ok",
      last_row_count: r.last_row_count,
      ...(r.message !== "" ? { message: r.message } : {}),
      checked_at: iso(r.checked_at),
      // A failed resource is one the provider says is gone or hidden: only the user can mend it.
      ...(r.status === "failed" ? { retryable: false, action: resourceAccessAction, sync_blocked: true, sync_blocked_reason: r.message } : {}),
    })),
  };
}
