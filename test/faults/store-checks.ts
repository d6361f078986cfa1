import { join } from "node:path";
import { sql } from "kysely";
import { VectorStore } from "../../src/features/search/vector-store.js";
import { decodeTerms } from "../../src/features/items/chunk-terms.js";
import { openStore, type Store } from "../../src/platform/store/db.js";
import type { TestDb } from "../helpers/test-db.js";
import type { AcceptedModel } from "./accepted-model.js";

/** A read-only look at the store from test code (an operator's view), closed by the caller. */
export function openStoreOf(db: TestDb): Store {
  return openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, poolSize: 2 });
}

const TERMINAL = new Set(["completed", "errored"]);

/** The id of a database by name (one organization per fault scenario). */
async function databaseId(store: Store, name: string): Promise<string> {
  const row = await store.db.selectFrom("databases").select("id").where("name", "=", name).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Everything that must hold for a database's items once the service settled: each accepted item
 * stored once and terminal, nothing stored that was not sent, chunks, postings, vectors and graph
 * rows written exactly once. Returns the problems found (empty: consistent).
 */
export async function contextProblems(store: Store, database: string, model: AcceptedModel): Promise<string[]> {
  const problems: string[] = [];
  const dbId = await databaseId(store, database);
  const items = await store.db.selectFrom("context_items").select(["id", "source_id", "status", "chunk_count"]).where("database_id", "=", dbId).execute();
  const bySource = new Map<string, number>();
  for (const i of items) bySource.set(i.source_id, (bySource.get(i.source_id) ?? 0) + 1);
  for (const id of model.accepted) if (!bySource.has(id)) problems.push(`accepted item ${id} lost`);
  const allowed = model.allowed();
  for (const [id, n] of bySource) {
    if (n > 1) problems.push(`item ${id} stored ${n} times`);
    if (!allowed.has(id)) problems.push(`item ${id} stored but never sent`);
  }
  for (const i of items) if (!TERMINAL.has(i.status)) problems.push(`item ${i.source_id} not terminal: ${i.status}`);

  const chunks = await store.db
    .selectFrom("context_chunks")
    .select(["chunk_key", "chunk_uuid", "item_id", "position"])
    .where("database_id", "=", dbId)
    .execute();
  const positions = new Map<string, number[]>();
  for (const c of chunks) positions.set(c.item_id, [...(positions.get(c.item_id) ?? []), c.position]);
  for (const i of items) {
    const p = positions.get(i.id) ?? [];
    if (i.status === "completed" && p.length !== i.chunk_count) problems.push(`item ${i.source_id}: ${p.length} chunks, chunk_count ${i.chunk_count}`);
    if (new Set(p).size !== p.length) problems.push(`item ${i.source_id}: duplicate chunk positions ${p.join(",")}`);
  }
  const itemIds = new Set(items.map((i) => i.id));
  for (const c of chunks) if (!itemIds.has(c.item_id)) problems.push(`chunk ${c.chunk_key} of a missing item`);

  const vectors = await store.db.selectFrom("context_vectors").select("chunk_key").where("database_id", "=", dbId).execute();
  const vectorKeys = new Set(vectors.map((v) => Number(v.chunk_key)));
  const chunkKeys = new Set(chunks.map((c) => Number(c.chunk_key)));
  if (vectors.length !== chunks.length) problems.push(`${vectors.length} vectors for ${chunks.length} chunks`);
  for (const k of chunkKeys) if (!vectorKeys.has(k)) problems.push(`chunk ${k} has no vector`);

  // Postings: each chunk's are in its row (migration 0022), written with it.
  const postings = await store.db.selectFrom("context_chunks").select(["chunk_key", "terms"]).where("database_id", "=", dbId).execute();
  for (const p of postings) if (decodeTerms(p.terms).length === 0) problems.push(`chunk ${Number(p.chunk_key)} has no postings`);

  const chunkUuids = new Set(chunks.map((c) => c.chunk_uuid));
  const twice = async (table: "context_graph_mentions" | "context_graph_triplets" | "context_graph_links", columns: string[]): Promise<void> => {
    const cols = sql.join(columns.map((c) => sql.ref(c)));
    const rows = await sql<{
      n: number;
    }>`SELECT COUNT(*) AS n FROM ${sql.table(table)} WHERE database_id = ${dbId} GROUP BY ${cols} HAVING COUNT(*) > 1`.execute(store.db);
    if (rows.rows.length > 0) problems.push(`${table}: ${rows.rows.length} rows stored more than once`);
  };
  await twice("context_graph_mentions", ["item_id", "chunk_id", "entity_id"]);
  await twice("context_graph_triplets", ["item_id", "chunk_id", "kind", "source_entity_id", "target_entity_id"]);
  await twice("context_graph_links", ["item_id", "target_source_id", "kind", "relation_type"]);
  for (const table of ["context_graph_mentions", "context_graph_triplets"] as const) {
    const rows = await store.db.selectFrom(table).select(["item_id", "chunk_id"]).where("database_id", "=", dbId).execute();
    for (const r of rows) {
      if (!itemIds.has(r.item_id)) problems.push(`${table} row of missing item ${r.item_id}`);
      else if (!chunkUuids.has(r.chunk_id)) problems.push(`${table} row of missing chunk ${r.chunk_id}`);
    }
  }
  return problems;
}

/** Jobs that nobody will finish: running under a lease long expired, or due long ago and still queued. */
export async function stuckJobs(store: Store, now: number, graceMs: number): Promise<string[]> {
  const rows = await store.db
    .selectFrom("jobs")
    .select(["id", "kind", "status", "lease_expires_at", "run_at", "attempts"])
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "running"), eb("lease_expires_at", "<", now - graceMs)]),
        eb.and([eb("status", "=", "queued"), eb("run_at", "<", now - graceMs)]),
      ]),
    )
    .execute();
  return rows.map((r) => `${r.kind} ${r.id} ${r.status} (attempts ${r.attempts})`);
}

/** Jobs that ran out of attempts. */
export async function deadJobs(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom("jobs").select(["id", "kind", "last_error"]).where("status", "=", "dead").execute();
  return rows.map((r) => `${r.kind} ${r.id}: ${r.last_error ?? ""}`);
}

/** SQLite: each saved vector index file (as the last process left it) against the vectors table. */
export async function vectorIndexProblems(store: Store, db: TestDb): Promise<string[]> {
  const checks = await new VectorStore(store, join(db.dataDir, "indexes")).checkSavedIndexes();
  return checks
    .filter((c) => c.indexed !== c.rows || c.missing !== 0)
    .map((c) => `${c.file}: ${c.rows} rows, ${String(c.indexed)} in the index, ${String(c.missing)} rows missing from it`);
}
