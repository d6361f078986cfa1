import type { EntityMerge, GraphEntity } from "../../engines/extraction/index.js";
import { normalizeName } from "../../engines/extraction/normalize-name.js";
import type { ItemRow } from "../items/store.js";
import type { ExpressionBuilder } from "kysely";
import type { Executor } from "../../platform/store/db.js";
import type { Schema } from "../../platform/store/schema.js";
import { scopeColumns, type Corpus } from "../items/item-types.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";
import { deletePeople } from "./alias-store.js";
import type { ChunkText, ItemGraph } from "./extract-item-graph.js";
import type { ItemLink } from "./item-links.js";

/**
 * The writes of the context graph (links, triplets, entities, mentions; people and aliases are in
 * alias-store.ts), and the two reads of items and chunks a build needs. Every query is scoped by
 * the graph's organization: the scope columns, or `org_id` beside an item id.
 */

/** One graph: a corpus of a collection of a database of an organization. Knowledge and memory never share one. */
export interface GraphScope extends DatabaseTenancy {
  readonly corpus: Corpus;
}

/** The organization and database a graph row belongs to, without a collection: what a purge addresses. */
export type GraphDatabase = Pick<DatabaseTenancy, "orgId" | "databaseId">;

export const graphScopeOf = (item: Pick<ItemRow, "org_id" | "database_id" | "corpus" | "collection">): GraphScope => ({
  orgId: item.org_id,
  databaseId: item.database_id,
  corpus: item.corpus,
  collection: item.collection,
});

/** The resolver's scope: corpus inside the collection, so the two graphs never share an entity id. */
export const resolutionScopeOf = (s: Omit<GraphScope, "orgId">): { database: string; collection: string } => ({
  database: s.databaseId,
  collection: `${s.corpus}/${s.collection}`,
});
/** The alias table's scope column (PostgreSQL text cannot hold the resolver's NUL separator). */
export const aliasScopeKey = (s: Omit<GraphScope, "orgId">): string => `${s.databaseId}|${s.corpus}/${s.collection}`;

const BATCH = 200;

async function inBatches<T>(rows: readonly T[], write: (part: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await write(rows.slice(i, i + BATCH));
}

/** The scope columns of a graph row: for inserts, and as a filter with `.where((eb) => eb.and(rowScope(s)))`. */
export const rowScope = (s: GraphScope) => scopeColumns(s);

/** The texts of an item's chunks, in order (what the build reads them from). */
export async function chunkTextsOf(db: Executor, item: Pick<ItemRow, "org_id">, chunkKeys: readonly number[]): Promise<ChunkText[]> {
  if (chunkKeys.length === 0) return [];
  const rows = await db
    .selectFrom("context_chunks")
    .select(["chunk_uuid", "content", "position"])
    .where("org_id", "=", item.org_id)
    .where("chunk_key", "in", [...chunkKeys])
    .orderBy("position")
    .execute();
  return rows.map((r) => ({ chunkId: r.chunk_uuid, content: r.content }));
}

/** A provider-aware target without kind points at whichever item carries that provider and external id. */
export async function resolveExternalLinks(tx: Executor, scope: GraphScope, links: readonly ItemLink[]): Promise<ItemLink[]> {
  const out: ItemLink[] = [];
  for (const link of links) {
    if (link.external === undefined) {
      out.push(link);
      continue;
    }
    const found = await tx
      .selectFrom("context_items")
      .select("source_id")
      .where((eb) => eb.and(rowScope(scope)))
      .where("app_provider", "=", link.external.provider.toLowerCase())
      .where("app_external_id", "=", link.external.externalId)
      .executeTakeFirst();
    out.push({ ...link, targetSourceId: found?.source_id ?? link.targetSourceId });
  }
  return out;
}

/** Removes everything the item contributed; returns the entities it referenced (GC candidates). */
export async function removeItemGraph(tx: Executor, item: Pick<ItemRow, "id" | "source_id" | "org_id">): Promise<Set<string>> {
  const candidates = new Set<string>([item.source_id]);
  const ofItem = { org_id: item.org_id, item_id: item.id };
  const triplets = await tx
    .selectFrom("context_graph_triplets")
    .select(["source_entity_id", "target_entity_id"])
    .where((eb) => eb.and(ofItem))
    .execute();
  for (const t of triplets) {
    candidates.add(t.source_entity_id);
    candidates.add(t.target_entity_id);
  }
  const mentions = await tx
    .selectFrom("context_graph_mentions")
    .select("entity_id")
    .where((eb) => eb.and(ofItem))
    .execute();
  for (const m of mentions) candidates.add(m.entity_id);
  for (const table of ["context_graph_triplets", "context_graph_mentions", "context_graph_links"] as const) {
    await tx
      .deleteFrom(table)
      .where((eb) => eb.and(ofItem))
      .execute();
  }
  return candidates;
}

function entityRow(scope: GraphScope, e: GraphEntity) {
  return {
    ...rowScope(scope),
    entity_id: e.entity_id,
    name: e.name,
    name_key: normalizeName(e.name),
    type: e.type,
    namespace: e.namespace,
    identifier: e.identifier,
    provider: e.provider ?? null,
  };
}

async function upsertEntities(tx: Executor, scope: GraphScope, item: ItemRow, entities: Iterable<GraphEntity>): Promise<void> {
  const all = [...entities];
  // Placeholders for other items (a thread root, a parent) never overwrite that item's own entity.
  const placeholders = all.filter((e) => e.type === "SOURCE" && e.entity_id !== item.source_id).map((e) => entityRow(scope, e));
  const named = all.filter((e) => e.type !== "SOURCE" || e.entity_id === item.source_id).map((e) => entityRow(scope, e));
  const key = ["database_id", "corpus", "collection", "entity_id"] as const;
  await inBatches(placeholders, (part) =>
    tx
      .insertInto("context_graph_entities")
      .values(part)
      .onConflict((oc) => oc.columns(key).doNothing())
      .execute(),
  );
  // Only new entities are inserted and only changed ones updated: an upsert would rewrite (and
  // lock until commit) the rows of every entity the item mentions, and graphs of one collection
  // built at once by other processes would queue on the entities they share.
  await inBatches(named, async (part) => {
    const stored = await tx
      .selectFrom("context_graph_entities")
      .select(["entity_id", "name", "name_key", "identifier", "provider"])
      .where((eb) => eb.and(rowScope(scope)))
      .where(
        "entity_id",
        "in",
        part.map((e) => e.entity_id),
      )
      .execute();
    const byId = new Map(stored.map((r) => [r.entity_id, r]));
    const fresh = part.filter((e) => !byId.has(e.entity_id));
    const changed = part.filter((e) => {
      const was = byId.get(e.entity_id);
      return was !== undefined && (was.name !== e.name || was.name_key !== e.name_key || was.identifier !== e.identifier || was.provider !== e.provider);
    });
    if (fresh.length > 0) {
      await tx
        .insertInto("context_graph_entities")
        .values(fresh)
        .onConflict((oc) =>
          oc.columns(key).doUpdateSet((eb) => ({
            name: eb.ref("excluded.name"),
            name_key: eb.ref("excluded.name_key"),
            identifier: eb.ref("excluded.identifier"),
            provider: eb.ref("excluded.provider"),
          })),
        )
        .execute();
    }
    for (const e of changed) {
      await tx
        .updateTable("context_graph_entities")
        .set({ name: e.name, name_key: e.name_key, identifier: e.identifier, provider: e.provider })
        .where((eb) => eb.and(rowScope(scope)))
        .where("entity_id", "=", e.entity_id)
        .execute();
    }
  });
}

export async function writeItemGraph(tx: Executor, item: ItemRow, graph: ItemGraph, links: readonly ItemLink[]): Promise<void> {
  const scope = graphScopeOf(item);
  await upsertEntities(tx, scope, item, graph.entities.values());
  const triplets = graph.triplets.map(({ kind, triplet }) => ({
    ...rowScope(scope),
    item_id: item.id,
    chunk_id: triplet.chunk_id,
    kind,
    source_entity_id: triplet.source.entity_id,
    target_entity_id: triplet.target.entity_id,
    relations: JSON.stringify(triplet.relations),
  }));
  await inBatches(triplets, (part) => tx.insertInto("context_graph_triplets").values(part).execute());
  const mentions = graph.mentions.map((m) => ({ ...rowScope(scope), item_id: item.id, chunk_id: m.chunkId, entity_id: m.entityId }));
  await inBatches(mentions, (part) => tx.insertInto("context_graph_mentions").values(part).execute());
  const at = item.item_timestamp ?? item.created_at;
  const linkRows = links.map((l) => ({
    ...rowScope(scope),
    item_id: item.id,
    target_source_id: l.targetSourceId,
    kind: l.kind,
    relation_type: l.relationType,
    created_at: at,
  }));
  await inBatches(linkRows, (part) => tx.insertInto("context_graph_links").values(part).execute());
}

/** Repoints stored rows from merged-away entity ids; the merged-into entity is written by the build. */
export async function applyMerges(tx: Executor, scope: GraphScope, merges: readonly EntityMerge[]): Promise<void> {
  for (const { from, into } of merges) {
    const inScope = (eb: ExpressionBuilder<Schema, "context_graph_triplets" | "context_graph_mentions" | "context_graph_entities">) => eb.and(rowScope(scope));
    await tx.updateTable("context_graph_triplets").set({ source_entity_id: into }).where(inScope).where("source_entity_id", "=", from).execute();
    await tx.updateTable("context_graph_triplets").set({ target_entity_id: into }).where(inScope).where("target_entity_id", "=", from).execute();
    await tx.updateTable("context_graph_mentions").set({ entity_id: into }).where(inScope).where("entity_id", "=", from).execute();
    await tx.deleteFrom("context_graph_entities").where(inScope).where("entity_id", "=", from).execute();
  }
}

/** Deletes the candidate entities no triplet or mention refers to any more (and their aliases). */
export async function collectGarbage(tx: Executor, scope: GraphScope, candidates: ReadonlySet<string>): Promise<void> {
  const ids = [...candidates];
  const gone: string[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    const used = new Set<string>();
    const triplets = tx.selectFrom("context_graph_triplets").where((eb) => eb.and(rowScope(scope)));
    for (const r of await triplets.select("source_entity_id as id").where("source_entity_id", "in", part).execute()) used.add(r.id);
    for (const r of await triplets.select("target_entity_id as id").where("target_entity_id", "in", part).execute()) used.add(r.id);
    const mentions = await tx
      .selectFrom("context_graph_mentions")
      .select("entity_id as id")
      .where((eb) => eb.and(rowScope(scope)))
      .where("entity_id", "in", part)
      .execute();
    for (const r of mentions) used.add(r.id);
    gone.push(...part.filter((id) => !used.has(id)));
  }
  await inBatches(gone, (part) =>
    tx
      .deleteFrom("context_graph_entities")
      .where((eb) => eb.and(rowScope(scope)))
      .where("entity_id", "in", part)
      .execute(),
  );
  await deletePeople(tx, scope, aliasScopeKey(scope), gone);
}

/** Deletes a database's whole context graph (the database purge). */
export async function purgeDatabaseGraph(tx: Executor, at: GraphDatabase): Promise<void> {
  for (const table of [
    "context_graph_links",
    "context_graph_triplets",
    "context_graph_entities",
    "context_graph_mentions",
    "context_graph_people",
    "context_graph_aliases",
  ] as const) {
    await tx.deleteFrom(table).where("org_id", "=", at.orgId).where("database_id", "=", at.databaseId).execute();
  }
}
