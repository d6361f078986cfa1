import { sql } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";

/** Where a collection's rows live; every row carries all three ids. */
export interface CollectionRowScope {
  readonly collectionId: string;
  readonly orgId: string;
  readonly databaseId: string;
}

export type NodeRow = readonly [nodeId: number, labels: string, properties: string];
export type RelationshipRow = readonly [relId: number, type: string, start: number, end: number, properties: string];

/**
 * Upserts of node and relationship rows in large batches. Each batch is one statement with one
 * array parameter per column (PostgreSQL `unnest`) or one JSON parameter (SQLite `json_each`),
 * so neither the bound-parameter limit nor per-row query building bounds throughput: a bulk
 * `UNWIND ... CREATE` of 100,000 nodes is 20 statements.
 */
const BATCH = 5_000;

function* batches<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += BATCH) yield rows.slice(i, i + BATCH);
}

export async function upsertNodes(db: Executor, backend: Backend, scope: CollectionRowScope, rows: readonly NodeRow[]): Promise<void> {
  const { collectionId, orgId, databaseId } = scope;
  for (const batch of batches(rows)) {
    const query =
      backend === "postgres"
        ? sql`INSERT INTO graph_nodes (collection_id, org_id, database_id, node_id, labels, properties)
              SELECT ${collectionId}, ${orgId}, ${databaseId}, t.node_id, t.labels, t.properties
              FROM unnest(${batch.map((r) => r[0])}::bigint[], ${batch.map((r) => r[1])}::text[], ${batch.map((r) => r[2])}::text[])
                AS t(node_id, labels, properties)
              ON CONFLICT (collection_id, node_id) DO UPDATE SET labels = EXCLUDED.labels, properties = EXCLUDED.properties`
        : sql`INSERT INTO graph_nodes (collection_id, org_id, database_id, node_id, labels, properties)
              SELECT ${collectionId}, ${orgId}, ${databaseId},
                     json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
              FROM json_each(${JSON.stringify(batch)}) WHERE true
              ON CONFLICT (collection_id, node_id) DO UPDATE SET labels = excluded.labels, properties = excluded.properties`;
    await query.execute(db);
  }
}

/** Type and endpoints never change after creation; a conflict only updates the properties. */
export async function upsertRelationships(db: Executor, backend: Backend, scope: CollectionRowScope, rows: readonly RelationshipRow[]): Promise<void> {
  const { collectionId, orgId, databaseId } = scope;
  for (const batch of batches(rows)) {
    const query =
      backend === "postgres"
        ? sql`INSERT INTO graph_relationships (collection_id, org_id, database_id, rel_id, type, start_node, end_node, properties)
              SELECT ${collectionId}, ${orgId}, ${databaseId}, t.rel_id, t.type, t.start_node, t.end_node, t.properties
              FROM unnest(${batch.map((r) => r[0])}::bigint[], ${batch.map((r) => r[1])}::text[], ${batch.map((r) => r[2])}::bigint[],
                          ${batch.map((r) => r[3])}::bigint[], ${batch.map((r) => r[4])}::text[])
                AS t(rel_id, type, start_node, end_node, properties)
              ON CONFLICT (collection_id, rel_id) DO UPDATE SET properties = EXCLUDED.properties`
        : sql`INSERT INTO graph_relationships (collection_id, org_id, database_id, rel_id, type, start_node, end_node, properties)
              SELECT ${collectionId}, ${orgId}, ${databaseId}, json_extract(value, '$[0]'), json_extract(value, '$[1]'),
                     json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]')
              FROM json_each(${JSON.stringify(batch)}) WHERE true
              ON CONFLICT (collection_id, rel_id) DO UPDATE SET properties = excluded.properties`;
    await query.execute(db);
  }
}
