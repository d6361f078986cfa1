import type { OrgObjects } from "../helpers/populated-org.js";

/** One request to a route, filled with the objects it acts on. */
export interface RouteRequest {
  readonly path: string;
  readonly query?: Record<string, string>;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

type Fixture = (o: OrgObjects) => RouteRequest;

const scope = (o: OrgObjects): Record<string, string> => ({ database: o.database, collection: o.collection });
const legacy = (o: OrgObjects): Record<string, string> => ({ tenant_id: o.database, sub_tenant_id: o.collection });
const mcpCall = (o: OrgObjects): unknown => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "inspect", arguments: { database: o.database, collection: o.collection, id: o.itemId } },
});

/**
 * Every authenticated route, keyed `METHOD /url` as the route table names it, with a request
 * aimed at real objects. A HEAD route uses its GET route's request. The matrix fails for a
 * registered route that is in neither this table nor PUBLIC_ROUTES, so a new route cannot
 * escape it.
 */
export const ROUTE_FIXTURES: Readonly<Record<string, Fixture>> = {
  "POST /databases": (o) => ({ path: "/databases", body: { database: o.database } }),
  "GET /databases": () => ({ path: "/databases" }),
  "DELETE /databases": (o) => ({ path: "/databases", body: { database: o.database } }),
  "GET /databases/status": (o) => ({ path: "/databases/status", query: { database: o.database } }),
  "GET /databases/collections": (o) => ({ path: "/databases/collections", query: { database: o.database } }),
  "DELETE /databases/collections": (o) => ({ path: "/databases/collections", query: scope(o) }),
  "GET /databases/stats": (o) => ({ path: "/databases/stats", query: { database: o.database } }),
  "PATCH /databases/:database/metadata-schema": (o) => ({
    path: `/databases/${encodeURIComponent(o.database)}/metadata-schema`,
    body: { fields: [{ name: "extra", data_type: "VARCHAR" }] },
  }),
  "POST /tenants/create": (o) => ({ path: "/tenants/create", body: { tenant_id: o.database } }),
  "POST /tenants": (o) => ({ path: "/tenants", body: { tenant_id: o.database } }),
  "GET /tenants/infra/status": (o) => ({ path: "/tenants/infra/status", query: { tenant_id: o.database } }),
  "GET /tenants/status": (o) => ({ path: "/tenants/status", query: { tenant_id: o.database } }),
  "GET /tenants/monitor": (o) => ({ path: "/tenants/monitor", query: { tenant_id: o.database } }),
  "GET /tenants/stats": (o) => ({ path: "/tenants/stats", query: { tenant_id: o.database } }),
  "GET /tenants/sub_tenant_ids": (o) => ({ path: "/tenants/sub_tenant_ids", query: { tenant_id: o.database } }),
  "GET /tenants/sub-tenants": (o) => ({ path: "/tenants/sub-tenants", query: { tenant_id: o.database } }),
  "DELETE /tenants/delete": (o) => ({ path: "/tenants/delete", query: { tenant_id: o.database } }),
  "DELETE /tenants": (o) => ({ path: "/tenants", body: { tenant_id: o.database } }),
  "GET /tenants/tenant_ids": () => ({ path: "/tenants/tenant_ids" }),
  "GET /tenants": () => ({ path: "/tenants" }),
  "POST /context/ingest": (o) => ({
    path: "/context/ingest",
    body: { type: "memory", ...scope(o), memories: [{ id: o.memoryId, text: "overwritten" }] },
  }),
  "GET /context/status": (o) => ({ path: "/context/status", query: { ...scope(o), ids: `${o.itemId},${o.fileId}` } }),
  "POST /context/list": (o) => ({ path: "/context/list", body: { ...scope(o), type: "all", include_fields: ["title", "metadata", "additional_metadata"] } }),
  "GET /context/inspect": (o) => ({ path: "/context/inspect", query: { ...scope(o), id: o.fileId, mode: "both" } }),
  "PATCH /context/:id/metadata": (o) => ({
    path: `/context/${encodeURIComponent(o.itemId)}/metadata`,
    body: { ...scope(o), additional_metadata: { tag: "changed" } },
  }),
  "DELETE /context": (o) => ({ path: "/context", body: { ...scope(o), ids: [o.itemId, o.fileId] } }),
  "GET /context/subgraph": (o) => ({ path: "/context/subgraph", query: { ...scope(o), id: o.itemId } }),
  "GET /context/:id/subgraph": (o) => ({ path: `/context/${encodeURIComponent(o.itemId)}/subgraph`, query: scope(o) }),
  "GET /context/relations": (o) => ({ path: "/context/relations", query: { ...scope(o), id: o.itemId } }),
  "POST /query": (o) => ({ path: "/query", body: { ...scope(o), type: "all", query: "note tea handbook" } }),
  "POST /ingestion/upload_knowledge": (o) => ({
    path: "/ingestion/upload_knowledge",
    body: { ...legacy(o), app_knowledge: [{ id: o.itemId, type: "note", content: { text: "overwritten" } }] },
  }),
  "POST /memories/add_memory": (o) => ({ path: "/memories/add_memory", body: { ...legacy(o), memories: [{ id: o.memoryId, text: "overwritten" }] } }),
  "POST /ingestion/verify_processing": (o) => ({ path: "/ingestion/verify_processing", body: { ...legacy(o), file_ids: [o.itemId, o.fileId] } }),
  "DELETE /memories/delete_memory": (o) => ({ path: "/memories/delete_memory", query: { ...legacy(o), memory_id: o.memoryId } }),
  "POST /knowledge/delete_knowledge": (o) => ({ path: "/knowledge/delete_knowledge", body: { ...legacy(o), source_ids: [o.itemId, o.fileId] } }),
  "POST /recall/full_recall": (o) => ({ path: "/recall/full_recall", body: { ...legacy(o), query: "note handbook" } }),
  "POST /recall/recall_preferences": (o) => ({ path: "/recall/recall_preferences", body: { ...legacy(o), query: "tea" } }),
  "POST /recall/boolean_recall": (o) => ({ path: "/recall/boolean_recall", body: { ...legacy(o), query: "note", operator: "or" } }),
  "POST /feedback": (o) => ({ path: "/feedback", body: { request_id: o.requestId, database: o.database, feedback: "changed", rating: "negative" } }),
  "GET /webhooks/indexing": () => ({ path: "/webhooks/indexing" }),
  "POST /webhooks/indexing": () => ({ path: "/webhooks/indexing", body: { url: "https://example.com/hook" } }),
  "DELETE /webhooks/indexing": () => ({ path: "/webhooks/indexing" }),
  "POST /webhooks/indexing/signing-secret": () => ({ path: "/webhooks/indexing/signing-secret", body: { signing_secret: "0123456789abcdef0123" } }),
  "DELETE /webhooks/indexing/signing-secret": () => ({ path: "/webhooks/indexing/signing-secret" }),
  "GET /webhooks/indexing/deliveries": () => ({ path: "/webhooks/indexing/deliveries" }),
  "GET /webhooks/indexing/deliveries/:delivery_id": (o) => ({ path: `/webhooks/indexing/deliveries/${encodeURIComponent(o.deliveryId)}` }),
  "POST /webhooks/indexing/deliveries/:delivery_id/retry": (o) => ({ path: `/webhooks/indexing/deliveries/${encodeURIComponent(o.deliveryId)}/retry` }),
  "POST /webhooks/indexing/test": () => ({ path: "/webhooks/indexing/test" }),
  "POST /byog/databases": (o) => ({ path: "/byog/databases", body: { database: o.graphDatabase } }),
  "POST /byog/query": (o) => ({
    path: "/byog/query",
    body: { database: o.graphDatabase, collection: o.graphCollection, query: "MATCH (n) SET n.name = 'changed' RETURN n" },
  }),
  "GET /byog/collections": (o) => ({ path: "/byog/collections", query: { database: o.graphDatabase } }),
  "DELETE /byog/collections": (o) => ({ path: "/byog/collections", body: { database: o.graphDatabase, collection: o.graphCollection } }),
  "DELETE /byog/databases": (o) => ({ path: "/byog/databases", body: { database: o.graphDatabase } }),
  "GET /connectors/providers": () => ({ path: "/connectors/providers", query: { id: "slack" } }),
  "POST /connectors": (o) => ({ path: "/connectors", body: { provider: "slack", database: o.database, credentials: { access_token: "xoxb-populated-org" } } }),
  "GET /connectors": () => ({ path: "/connectors" }),
  "GET /connectors/:id": (o) => ({ path: `/connectors/${o.connectorId}` }),
  "PATCH /connectors/:id": (o) => ({ path: `/connectors/${o.connectorId}`, body: { sync_interval_seconds: 900, name: "changed" } }),
  "DELETE /connectors/:id": (o) => ({ path: `/connectors/${o.connectorId}` }),
  "GET /connectors/:id/discover": (o) => ({ path: `/connectors/${o.connectorId}/discover` }),
  "POST /connectors/:id/configure": (o) => ({ path: `/connectors/${o.connectorId}/configure`, body: { resources: [{ resource_id: o.resourceId }] } }),
  "POST /connectors/:id/sync": (o) => ({ path: `/connectors/${o.connectorId}/sync` }),
  "GET /connectors/:id/resources": (o) => ({ path: `/connectors/${o.connectorId}/resources` }),
  "POST /connectors/:id/resources": (o) => ({ path: `/connectors/${o.connectorId}/resources`, body: { resource_id: o.resourceId, resource_type: "channel" } }),
  "DELETE /connectors/:id/resources/:resource_id": (o) => ({ path: `/connectors/${o.connectorId}/resources/${encodeURIComponent(o.resourceId)}` }),
  "POST /connectors/:id/pause": (o) => ({ path: `/connectors/${o.connectorId}/pause` }),
  "POST /connectors/:id/resume": (o) => ({ path: `/connectors/${o.connectorId}/resume` }),
  "GET /connectors/:id/status": (o) => ({ path: `/connectors/${o.connectorId}/status` }),
  "POST /mcp": (o) => ({ path: "/mcp", body: mcpCall(o), headers: { accept: "application/json, text/event-stream" } }),
  "GET /mcp": () => ({ path: "/mcp", headers: { accept: "text/event-stream" } }),
  "DELETE /mcp": () => ({ path: "/mcp" }),
};

/** Routes that answer without a key, each with the reason. Matched on the route table's url. */
const PUBLIC_ROUTES: Readonly<Record<string, string>> = {
  "/healthz": "liveness probe for orchestrators; says nothing about any organization",
  "/readyz": "readiness probe; reports store and worker health only",
  "/metrics": "deployment-wide Prometheus figures, no organization's ids or names in any label; METRICS_TOKEN guards it (test/ops/metrics.test.ts)",
  "/openapi.json": "the API description; the same for everyone",
  "/docs": "the browsable API description and its assets",
  "/console": "the web console's static files; the console asks for a key before calling the API",
  "/context/files/:token": "signed file download: the HMAC-signed, expiring token is the credential",
};

/** The public allowlist entry covering a route url (prefix match on path segments). */
export function publicReason(url: string): string | undefined {
  for (const [prefix, reason] of Object.entries(PUBLIC_ROUTES)) {
    if (url === prefix || url.startsWith(`${prefix}/`)) return reason;
  }
  return undefined;
}
