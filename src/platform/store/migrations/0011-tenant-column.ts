import type { Migration } from "./migration.js";

/**
 * Every table that holds an organization's data carries the organization's id, so isolation no
 * longer rests on each query joining back to `databases`: stores scope by it directly and, on
 * PostgreSQL, row-level security can check it. Stored rows take the id of their database's
 * organization. PostgreSQL then drops the column default, so an insert that forgets the
 * organization fails instead of storing an orphan; SQLite cannot drop a default, and its
 * stores set the column on every insert all the same.
 */
const TENANT_TABLES = [
  "collections",
  "context_chunks",
  "context_terms",
  "context_vectors",
  "blobs",
  "context_graph_links",
  "context_graph_triplets",
  "context_graph_entities",
  "context_graph_mentions",
  "context_graph_people",
  "context_graph_aliases",
] as const;

const addAndFill = (table: string): string[] => [
  `ALTER TABLE ${table} ADD COLUMN org_id TEXT NOT NULL DEFAULT ''`,
  `UPDATE ${table} SET org_id = COALESCE((SELECT d.org_id FROM databases d WHERE d.id = ${table}.database_id), '')`,
];

export const migration0011: Migration = {
  version: 11,
  name: "tenancy: organization id in every tenant table",
  sqlite: TENANT_TABLES.flatMap(addAndFill),
  postgres: TENANT_TABLES.flatMap((t) => [...addAndFill(t), `ALTER TABLE ${t} ALTER COLUMN org_id DROP DEFAULT`]),
};
