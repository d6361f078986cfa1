import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { openStore, type Store } from "../../src/platform/store/db.js";
import { migrate } from "../../src/platform/store/migrate.js";
import { decodeTerms } from "../../src/features/items/chunk-terms.js";
import { createReadyDatabase, field, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { createTestDb } from "../helpers/test-db.js";

type Postings = Map<number, Map<string, number>>;

const storedPostings = async (store: Store): Promise<Postings> => {
  const rows = await store.db.selectFrom("context_chunks").select(["chunk_key", "terms"]).execute();
  return new Map(rows.map((r) => [Number(r.chunk_key), new Map(decodeTerms(r.terms))]));
};

/**
 * Puts a store back as it was before migration 0022: the postings as one row per chunk and term
 * (the table as migrations 0004, 0011 and 0020 left it), the chunks without their `terms` column.
 */
async function backToLevel21(store: Store): Promise<void> {
  const postgres = store.backend === "postgres";
  await sql`CREATE TABLE context_terms (
    chunk_key BIGINT NOT NULL REFERENCES context_chunks(chunk_key) ON DELETE CASCADE,
    database_id TEXT NOT NULL, corpus TEXT NOT NULL, collection TEXT NOT NULL,
    term TEXT NOT NULL, tf INTEGER NOT NULL, org_id TEXT NOT NULL,
    PRIMARY KEY (chunk_key, term))`.execute(store.db);
  await (
    postgres
      ? sql`INSERT INTO context_terms (chunk_key, database_id, corpus, collection, term, tf, org_id)
        SELECT c.chunk_key, c.database_id, c.corpus, c.collection, j.key, j.value::int, c.org_id FROM context_chunks c, json_each_text(c.terms::json) j`
      : sql`INSERT INTO context_terms (chunk_key, database_id, corpus, collection, term, tf, org_id)
        SELECT c.chunk_key, c.database_id, c.corpus, c.collection, j.key, j.value, c.org_id FROM context_chunks c, json_each(c.terms) j`
  ).execute(store.db);
  await sql`ALTER TABLE context_chunks DROP COLUMN terms`.execute(store.db);
  await sql`DELETE FROM schema_migrations WHERE version = 22`.execute(store.db);
}

test("migration 22 moves every chunk's postings into its row unchanged, and the service answers from them", { timeout: 120_000 }, async () => {
  const db = await createTestDb({ migrated: true });
  const body = "Saffron buns are baked on Lucia morning; the saffron comes from Spain, the buns from the bakery on 12 Main St.";
  let t = await startTestApp({}, db);
  let before: Postings;
  const key = t.key;
  try {
    await createReadyDatabase(t, "kb");
    const res = await ingestMultipart(t, {
      type: "knowledge",
      database: "kb",
      app_knowledge: JSON.stringify([
        { id: "buns", type: "note", content: { text: body } },
        { id: "tea", type: "note", content: { text: "Green tea, twice a day; the __proto__ of a tea is its leaf." } },
      ]),
    });
    assert.equal(res.status, 202, res.text);
    await waitTerminal(t, "kb", ["buns", "tea"]);
    before = await storedPostings(t.app.store);
  } finally {
    await t.close();
  }
  assert.ok(before.size >= 2 && [...before.values()].every((p) => p.size > 0), "every chunk was written with its postings");
  assert.ok(
    [...before.values()].some((p) => p.get("saffron") === 2),
    "frequencies are kept",
  );

  const store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, poolSize: 2 });
  try {
    await backToLevel21(store);
    assert.equal(
      Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM context_terms`.execute(store.db)).rows[0]?.n),
      [...before.values()].reduce((n, p) => n + p.size, 0),
    );
    assert.deepEqual(await migrate(store), [22]);
    assert.deepEqual(await storedPostings(store), before, "the same postings, chunk by chunk");
    await assert.rejects(sql`SELECT 1 FROM context_terms`.execute(store.db), "the per-term table is gone");
  } finally {
    await store.close();
  }

  // A new process builds its BM25 index from the migrated rows (no saved index file is trusted
  // over them: the file agrees with the store only if the postings read back the same).
  t = await startTestApp({}, db);
  try {
    const found = await t.request("POST", "/query", { key, body: { database: "kb", query: "saffron bakery", query_by: "text", max_results: 5 } });
    assert.equal(found.status, 200, found.text);
    assert.deepEqual(
      field<Array<{ source_id: string }>>(found.body, "data.chunks").map((c) => c.source_id),
      ["buns"],
    );
  } finally {
    await t.close();
    await db.drop();
  }
});
