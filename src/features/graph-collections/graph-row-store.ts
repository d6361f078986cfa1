import { sql } from "kysely";
import type { IndexDefinition } from "../../engines/cypher/index.js";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";
import type { ChangeRows, NodeRow, RelationshipRow } from "./rows.js";

/**
 * The rows of one graph collection (graph_nodes, graph_relationships, graph_indexes): where they
 * live is the collection's id inside its organization's database. Every row carries all three
 * ids, and every query here names the organization as well as the collection.
 */
export interface CollectionRowScope extends Pick<DatabaseTenancy, "orgId" | "databaseId"> {
  readonly collectionId: string;
}

// Ids per DELETE statement: well below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const DELETE_BATCH = 1_000;
// Rows per page when loading; keyset pages keep memory flat on graphs of millions of rows.
const LOAD_PAGE = 20_000;

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** Where the pages of a stored collection go while it is read (the query worker that loads it). */
export interface GraphPageSink {
  nodes(rows: NodeRow[]): Promise<void>;
  relationships(rows: RelationshipRow[]): Promise<void>;
  indexes(defs: IndexDefinition[]): Promise<void>;
}

/**
 * Reads a whole collection in keyset pages, handing each page on as stored (labels and properties
 * still encoded; the worker decodes them). The caller holds a snapshot or the collection lock, so
 * the pages form one consistent state.
 */
export async function readGraphRows(db: Executor, scope: CollectionRowScope, sink: GraphPageSink): Promise<void> {
  const { collectionId, orgId } = scope;
  for (let after = -1; ;) {
    const page = await db
      .selectFrom("graph_nodes")
      .select(["node_id", "labels", "properties"])
      .where("collection_id", "=", collectionId)
      .where("org_id", "=", orgId)
      .where("node_id", ">", after)
      .orderBy("node_id")
      .limit(LOAD_PAGE)
      .execute();
    await sink.nodes(page.map((r): NodeRow => [Number(r.node_id), r.labels, r.properties]));
    if (page.length < LOAD_PAGE) break;
    after = Number(page[page.length - 1]?.node_id);
  }
  for (let after = -1; ;) {
    const page = await db
      .selectFrom("graph_relationships")
      .select(["rel_id", "type", "start_node", "end_node", "properties"])
      .where("collection_id", "=", collectionId)
      .where("org_id", "=", orgId)
      .where("rel_id", ">", after)
      .orderBy("rel_id")
      .limit(LOAD_PAGE)
      .execute();
    await sink.relationships(page.map((r): RelationshipRow => [Number(r.rel_id), r.type, Number(r.start_node), Number(r.end_node), r.properties]));
    if (page.length < LOAD_PAGE) break;
    after = Number(page[page.length - 1]?.rel_id);
  }
  const indexes = await db
    .selectFrom("graph_indexes")
    .select(["entity", "token", "property"])
    .where("collection_id", "=", collectionId)
    .where("org_id", "=", orgId)
    .orderBy("entity")
    .orderBy("token")
    .orderBy("property")
    .execute();
  await sink.indexes(indexes);
}

export function isEmptyChangeRows(c: ChangeRows): boolean {
  return c.indexes === null && c.nodes.length + c.deletedNodes.length === 0 && c.relationships.length + c.deletedRelationships.length === 0;
}

/**
 * Writes one query's changes: only the touched nodes, relationships and (when they changed) the
 * index definitions. Created and updated entities are both upserts of their current state. One
 * change set never holds an id both deleted and created (the engine frees ids only between change
 * sets), so the order of deletes and upserts does not matter.
 */
export async function writeChangeRows(db: Executor, backend: Backend, scope: CollectionRowScope, changes: ChangeRows): Promise<void> {
  const { collectionId, orgId } = scope;
  for (const batch of chunks(changes.deletedRelationships, DELETE_BATCH)) {
    await db.deleteFrom("graph_relationships").where("collection_id", "=", collectionId).where("org_id", "=", orgId).where("rel_id", "in", batch).execute();
  }
  for (const batch of chunks(changes.deletedNodes, DELETE_BATCH)) {
    await db.deleteFrom("graph_nodes").where("collection_id", "=", collectionId).where("org_id", "=", orgId).where("node_id", "in", batch).execute();
  }
  await upsertNodes(db, backend, scope, changes.nodes);
  await upsertRelationships(db, backend, scope, changes.relationships);
  if (changes.indexes !== null) await replaceIndexes(db, scope, changes.indexes);
}

async function replaceIndexes(db: Executor, scope: CollectionRowScope, indexes: readonly IndexDefinition[]): Promise<void> {
  await db.deleteFrom("graph_indexes").where("collection_id", "=", scope.collectionId).where("org_id", "=", scope.orgId).execute();
  if (indexes.length === 0) return;
  await db
    .insertInto("graph_indexes")
    .values(
      indexes.map((def) => ({
        collection_id: scope.collectionId,
        org_id: scope.orgId,
        database_id: scope.databaseId,
        entity: def.entity,
        token: def.token,
        property: def.property,
      })),
    )
    .execute();
}

/** Removes every row of one collection except its head row. */
export async function deleteGraphRows(db: Executor, scope: CollectionRowScope): Promise<void> {
  for (const table of ["graph_relationships", "graph_nodes", "graph_indexes"] as const) {
    await db.deleteFrom(table).where("collection_id", "=", scope.collectionId).where("org_id", "=", scope.orgId).execute();
  }
}

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

async function upsertNodes(db: Executor, backend: Backend, scope: CollectionRowScope, rows: readonly NodeRow[]): Promise<void> {
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
async function upsertRelationships(db: Executor, backend: Backend, scope: CollectionRowScope, rows: readonly RelationshipRow[]): Promise<void> {
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
