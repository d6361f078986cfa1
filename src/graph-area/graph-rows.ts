import type { ChangeSet, IndexDefinition } from "../cypher/index.js";
import type { Backend, Executor } from "../store/db.js";
import { upsertNodes, upsertRelationships, type CollectionRowScope, type RelationshipRow } from "./bulk-upsert.js";
import { CollectionGraph } from "./collection-graph.js";
import { decodeLabels, decodeProperties, encodeLabels, encodeProperties } from "./property-codec.js";

// Ids per DELETE statement: well below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const DELETE_BATCH = 1_000;
// Rows per page when loading; keyset pages keep memory flat on graphs of millions of rows.
const LOAD_PAGE = 20_000;

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Reads a whole collection into a fresh in-memory graph. The caller holds a lock that keeps
 * writers out for the duration, so the pages form one consistent state.
 */
export async function loadGraph(db: Executor, collectionId: string): Promise<CollectionGraph> {
  const graph = new CollectionGraph();
  for (let after = -1; ; ) {
    const page = await db
      .selectFrom("graph_nodes")
      .select(["node_id", "labels", "properties"])
      .where("collection_id", "=", collectionId)
      .where("node_id", ">", after)
      .orderBy("node_id")
      .limit(LOAD_PAGE)
      .execute();
    for (const r of page) graph.restoreNode(Number(r.node_id), decodeLabels(r.labels), decodeProperties(r.properties));
    if (page.length < LOAD_PAGE) break;
    after = Number(page[page.length - 1]?.node_id);
  }
  for (let after = -1; ; ) {
    const page = await db
      .selectFrom("graph_relationships")
      .select(["rel_id", "type", "start_node", "end_node", "properties"])
      .where("collection_id", "=", collectionId)
      .where("rel_id", ">", after)
      .orderBy("rel_id")
      .limit(LOAD_PAGE)
      .execute();
    for (const r of page) {
      graph.restoreRelationship(Number(r.rel_id), r.type, Number(r.start_node), Number(r.end_node), decodeProperties(r.properties));
    }
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
  for (const def of indexes) graph.createIndex(def);
  graph.commit();
  graph.takeChanges();
  return graph;
}

export function isEmptyChangeSet(c: ChangeSet): boolean {
  return (
    !c.indexesChanged &&
    c.createdNodes.length + c.updatedNodes.length + c.deletedNodes.length === 0 &&
    c.createdRelationships.length + c.updatedRelationships.length + c.deletedRelationships.length === 0
  );
}

/**
 * Writes one query's change set: only the touched nodes, relationships and (when they changed)
 * the index definitions. Created and updated entities are both upserts of their current state.
 * One change set never holds an id both deleted and created (the engine frees ids only between
 * change sets), so the order of deletes and upserts does not matter.
 */
export async function writeChangeSet(
  db: Executor,
  backend: Backend,
  scope: CollectionRowScope,
  graph: CollectionGraph,
  changes: ChangeSet,
): Promise<void> {
  const { collectionId } = scope;
  for (const batch of chunks(changes.deletedRelationships, DELETE_BATCH)) {
    await db.deleteFrom("graph_relationships").where("collection_id", "=", collectionId).where("rel_id", "in", batch).execute();
  }
  for (const batch of chunks(changes.deletedNodes, DELETE_BATCH)) {
    await db.deleteFrom("graph_nodes").where("collection_id", "=", collectionId).where("node_id", "in", batch).execute();
  }
  const touchedNodes = [...changes.createdNodes, ...changes.updatedNodes];
  await upsertNodes(db, backend, scope, touchedNodes.map((id) => [id, encodeLabels(graph.nodeLabels(id)), encodeProperties(graph.nodeProperties(id))]));
  const touchedRels = [...changes.createdRelationships, ...changes.updatedRelationships];
  const relRows = touchedRels.map((id): RelationshipRow => {
    const rel = graph.relationship(id);
    return [id, rel.type, rel.start, rel.end, encodeProperties(graph.relProperties(id))];
  });
  await upsertRelationships(db, backend, scope, relRows);
  if (changes.indexesChanged) await replaceIndexes(db, scope, graph.listIndexes());
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
