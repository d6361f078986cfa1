import type { IndexDefinition } from "../../engines/cypher/index.js";
import type { Backend, Executor } from "../../platform/store/db.js";
import { upsertNodes, upsertRelationships, type CollectionRowScope, type NodeRow, type RelationshipRow } from "./bulk-upsert.js";

// Ids per DELETE statement: well below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const DELETE_BATCH = 1_000;
// Rows per page when loading; keyset pages keep memory flat on graphs of millions of rows.
const LOAD_PAGE = 20_000;

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * One query's changes in their stored form (built by the query worker from its change set):
 * deleted ids, the current state of every created or updated entity, and the full index list
 * when it changed (null otherwise).
 */
export interface ChangeRows {
  readonly deletedNodes: readonly number[];
  readonly deletedRelationships: readonly number[];
  readonly nodes: readonly NodeRow[];
  readonly relationships: readonly RelationshipRow[];
  readonly indexes: readonly IndexDefinition[] | null;
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
export async function readGraphRows(db: Executor, collectionId: string, sink: GraphPageSink): Promise<void> {
  for (let after = -1; ;) {
    const page = await db
      .selectFrom("graph_nodes")
      .select(["node_id", "labels", "properties"])
      .where("collection_id", "=", collectionId)
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
  const { collectionId } = scope;
  for (const batch of chunks(changes.deletedRelationships, DELETE_BATCH)) {
    await db.deleteFrom("graph_relationships").where("collection_id", "=", collectionId).where("rel_id", "in", batch).execute();
  }
  for (const batch of chunks(changes.deletedNodes, DELETE_BATCH)) {
    await db.deleteFrom("graph_nodes").where("collection_id", "=", collectionId).where("node_id", "in", batch).execute();
  }
  await upsertNodes(db, backend, scope, changes.nodes);
  await upsertRelationships(db, backend, scope, changes.relationships);
  if (changes.indexes !== null) await replaceIndexes(db, scope, changes.indexes);
}

async function replaceIndexes(db: Executor, scope: CollectionRowScope, indexes: readonly IndexDefinition[]): Promise<void> {
  await db.deleteFrom("graph_indexes").where("collection_id", "=", scope.collectionId).execute();
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
export async function deleteGraphRows(db: Executor, collectionId: string): Promise<void> {
  await db.deleteFrom("graph_relationships").where("collection_id", "=", collectionId).execute();
  await db.deleteFrom("graph_nodes").where("collection_id", "=", collectionId).execute();
  await db.deleteFrom("graph_indexes").where("collection_id", "=", collectionId).execute();
}
