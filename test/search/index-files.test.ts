import assert from "node:assert/strict";
import { copyFileSync, readdirSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { readIndexFile, writeIndexFile } from "../../src/engines/bm25/index-file.js";
import { InvertedIndex } from "../../src/engines/bm25/inverted-index.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { sampleOf } from "../helpers/prometheus.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

let db: TestDb | null = null;
after(async () => db?.drop());

const note = (id: string, text: string) => ({ id, type: "note", content: { text } });

/** The ids a text query of the collection ranks, best first. */
async function ranked(t: TestApp, key: string, collection: string, query: string): Promise<string[]> {
  const res = await t.request("POST", "/query", { key, body: { database: "files", collection, query, query_by: "text", max_results: 10 } });
  assert.equal(res.status, 200, res.text);
  return field<Array<{ id: string }>>(res.body, "data.chunks").map((c) => c.id);
}

/** BM25 indexes loaded since the app started, from their saved files and from the store. */
async function loads(t: TestApp): Promise<{ file: number | null; store: number | null }> {
  const res = await t.request("GET", "/metrics", { key: null });
  assert.equal(res.status, 200, res.text);
  return {
    file: sampleOf(res.text, "context_store_search_index_loads", { from: "file" }),
    store: sampleOf(res.text, "context_store_search_index_loads", { from: "store" }),
  };
}

/** The saved BM25 index files of the store, by path. */
function savedFiles(dataDir: string): string[] {
  const root = join(dataDir, "indexes");
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".bm25")).map((f) => join(root, f));
}

test("BM25 indexes are saved at shutdown and read back at start: a stale file is brought level with the store, a foreign or damaged one is not used", async () => {
  db = await createTestDb();
  const first = await startTestApp({}, db);
  const key = first.key;
  await createReadyDatabase(first, "files");
  const ingest = async (t: TestApp, collection: string, notes: ReturnType<typeof note>[]): Promise<void> => {
    const res = await ingestMultipart(t, { type: "knowledge", database: "files", collection, app_knowledge: JSON.stringify(notes) }, [], key);
    assert.equal(res.status, 202, res.text);
    await waitTerminal(
      t,
      "files",
      notes.map((n) => n.id),
      collection,
      60_000,
      key,
    );
  };
  await ingest(first, "alpha", [
    note("a1", "Harbour cranes unload containers at dawn."),
    note("a2", "The cranes rest while the tide turns."),
    note("a3", "Gulls follow the fishing boats home."),
  ]);
  await ingest(first, "beta", [note("b1", "Glaciers carve valleys over millennia."), note("b2", "Herons nest near the mountain lakes.")]);
  const alphaBefore = await ranked(first, key, "alpha", "cranes containers");
  assert.deepEqual(alphaBefore, ["a1", "a2"]);
  assert.deepEqual(await ranked(first, key, "beta", "glaciers"), ["b1"]);
  await first.close();

  const files = savedFiles(db.dataDir);
  assert.equal(files.length, 2, "one file per collection of the knowledge corpus");
  const stale = join(db.dataDir, "alpha-as-first-saved.bm25");
  // Alpha's file is the larger: three notes against two.
  const [alphaFile, betaFile] = [...files].sort((x, y) => statSync(y).size - statSync(x).size) as [string, string];
  copyFileSync(alphaFile, stale);

  const second = await startTestApp({}, db);
  try {
    assert.equal((await second.app.indexesWarm).length, 2);
    assert.deepEqual(await loads(second), { file: 2, store: 0 }, "both read from their files");
    assert.deepEqual(await ranked(second, key, "alpha", "cranes containers"), alphaBefore, "ranked as before the restart");
    assert.deepEqual(await ranked(second, key, "beta", "glaciers"), ["b1"]);
    // After this, the file of the first shutdown is stale: a1 is gone, a4 is new.
    await ingest(second, "alpha", [note("a4", "New cranes arrived for the container terminal.")]);
    assert.equal((await second.request("DELETE", "/context", { key, body: { database: "files", collection: "alpha", ids: ["a1"] } })).status, 200);
  } finally {
    await second.close();
  }

  // A crash leaves the previous file behind: alpha's is put back as first saved. Beta's file is
  // replaced by alpha's (a file of another collection, as from a copied data directory).
  copyFileSync(stale, alphaFile);
  copyFileSync(stale, betaFile);
  const third = await startTestApp({}, db);
  try {
    await third.app.indexesWarm;
    assert.deepEqual(await loads(third), { file: 1, store: 1 }, "alpha's stale file is used, beta's foreign one is not");
    assert.deepEqual(await ranked(third, key, "alpha", "cranes containers"), ["a4", "a2"], "the deletion and the new note since the file was saved");
    assert.deepEqual(await ranked(third, key, "beta", "herons"), ["b2"]);
    assert.deepEqual(await ranked(third, key, "beta", "cranes"), [], "nothing of the foreign file's");
  } finally {
    await third.close();
  }

  // Alpha's file with alpha's chunk keys but other terms (another store's, or damaged), and
  // beta's cut short: neither is used.
  const saved = await readIndexFile(alphaFile);
  const tampered = new InvertedIndex();
  for (const chunkKey of saved.keysBetween(-1, Number.MAX_SAFE_INTEGER)) tampered.add(chunkKey, 1, [["zebra", 1]]);
  writeIndexFile(alphaFile, tampered);
  truncateSync(betaFile, 100);
  const fourth = await startTestApp({}, db);
  try {
    await fourth.app.indexesWarm;
    assert.deepEqual(await loads(fourth), { file: 0, store: 2 });
    assert.deepEqual(await ranked(fourth, key, "alpha", "zebra"), []);
    assert.deepEqual(await ranked(fourth, key, "alpha", "cranes containers"), ["a4", "a2"]);
    assert.deepEqual(await ranked(fourth, key, "beta", "glaciers"), ["b1"]);
  } finally {
    await fourth.close();
  }
  assert.equal(savedFiles(db.dataDir).length, 2, "both written again at the last shutdown");
});
