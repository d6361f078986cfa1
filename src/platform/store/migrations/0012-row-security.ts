import type { Migration } from "./migration.js";

/**
 * Every table that carries org_id (the list test/store/tenant-columns.test.ts checks, written out
 * so that this migration never changes with later ones: a table added later gets its policy in
 * its own migration, and test/store/row-security.test.ts fails until it does).
 */
const TENANT_TABLES = [
  "api_keys",
  "blobs",
  "collections",
  "connector_objects",
  "connector_resources",
  "connectors",
  "context_chunks",
  "context_graph_aliases",
  "context_graph_entities",
  "context_graph_links",
  "context_graph_mentions",
  "context_graph_people",
  "context_graph_triplets",
  "context_items",
  "context_terms",
  "context_vectors",
  "databases",
  "feedback",
  "graph_collections",
  "graph_indexes",
  "graph_nodes",
  "graph_relationships",
  "query_log",
  "webhook_deliveries",
  "webhook_endpoints",
] as const;

/**
 * A row is visible and writable in its organization's scope or in system scope; with neither
 * set (no scope) nothing is. NULLIF: an empty `app.org_id` (a session reset to no scope) must not
 * match a row whose org_id is empty. The settings are read in scalar subqueries, which PostgreSQL
 * evaluates once per statement (an InitPlan) instead of once per row scanned.
 */
const visibleTo = (column: string): string =>
  `(${column} = (SELECT NULLIF(current_setting('app.org_id', true), '')) OR (SELECT current_setting('app.scope', true)) = 'system')`;

const secure = (table: string, column: string): string[] => [
  `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`,
  // FORCE: the table's owner is held to the policy too (superusers and BYPASSRLS roles are not:
  // the store then acts as a role without it, see platform/store/row-security.ts).
  `ALTER TABLE ${table} FORCE ROW LEVEL SECURITY`,
  `CREATE POLICY tenant_rows ON ${table} USING ${visibleTo(column)} WITH CHECK ${visibleTo(column)}`,
];

/**
 * Row-level security, the second wall behind the stores' own organization conditions. The
 * organizations table is one too, on its id: a request sees its own organization; creating
 * organizations and authenticating keys (before the organization is known) run in system scope.
 * The migration log, the job queue and settings hold no organization's data and stay open.
 * SQLite has no row security: nothing to do there.
 */
export const migration0012: Migration = {
  version: 12,
  name: "tenancy: row-level security on every tenant table",
  sqlite: [],
  postgres: [...TENANT_TABLES.flatMap((t) => secure(t, "org_id")), ...secure("organizations", "id")],
};
