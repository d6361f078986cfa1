import assert from "node:assert/strict";
import { once } from "node:events";
import { join } from "node:path";
import { test } from "node:test";
import { VectorStore } from "../../src/features/search/vector-store.js";
import { openStore } from "../../src/platform/store/db.js";
import { startFakeEmbeddingsServer } from "../helpers/fake-embeddings-server.js";
import { eventually } from "../helpers/harness.js";
import { startServerProcess, type ServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

const KEY = "vector-kill-key-0123456789abcdefghijklmn";
const TEXTS: Record<string, string> = {
  a: "zebra zebra zoo zoom fizz buzz",
  b: "apple banana cherry grape",
  c: "quiet rivers run deep and slow",
  d: "xylophone jukebox vortex quixotic",
};

/**
 * A vector index file saved at a clean stop, then one deletion and one insertion (same count)
 * and a SIGKILL: the file on disk has the right size and the wrong keys. The next start must not
 * trust it (it used to compare only the count): the new item is found by dense search alone.
 */
test("after a SIGKILL, a vector index file with the right count but stale keys is rebuilt, not trusted", { timeout: 180_000 }, async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const embeddings = await startFakeEmbeddingsServer(16);
  t.after(() => embeddings.close());
  const env = {
    BOOTSTRAP_API_KEY: KEY,
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_BASE_URL: embeddings.baseUrl,
    EMBEDDING_MODEL: "fake",
    EMBEDDING_DIMENSIONS: "16",
    WARM_UP_INDEXES: "false",
    JOB_POLL_MS: "50",
  };
  const call = async (p: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${p.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, "API-Version": "2", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const ingest = async (p: ServerProcess, ids: string[]): Promise<void> => {
    const items = ids.map((id) => ({ id, type: "note", content: { text: TEXTS[id] ?? "" } }));
    assert.equal((await call(p, "POST", "/context/ingest", { type: "knowledge", database: "vk", app_knowledge: items })).status, 202);
    await eventually(async () => {
      const s = await call(p, "GET", `/context/status?database=vk&ids=${ids.join(",")}`);
      return (s.body.data as { statuses: Array<{ indexing_status: string }> }).statuses.every((r) => r.indexing_status === "completed");
    }, 60_000);
  };
  const denseTop = async (p: ServerProcess, text: string): Promise<string | undefined> => {
    const res = await call(p, "POST", "/query", { database: "vk", query: text, alpha: 1, max_results: 1 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.data as { chunks: Array<{ id: string }> }).chunks[0]?.id;
  };

  const first = await startServerProcess(t, db, env);
  assert.equal((await call(first, "POST", "/databases", { database: "vk" })).status, 202);
  await eventually(async () => {
    const s = await call(first, "GET", "/databases/status?database=vk");
    return (s.body.data as { infra?: { ready_for_ingestion?: boolean } } | undefined)?.infra?.ready_for_ingestion;
  });
  await ingest(first, ["a", "b", "c"]);
  await first.stop(); // saves the index: a, b, c

  const second = await startServerProcess(t, db, env);
  assert.equal(await denseTop(second, TEXTS.b ?? ""), "b", "the saved index loads");
  await ingest(second, ["d"]);
  const deleted = await call(second, "DELETE", "/context", { database: "vk", ids: ["a"] });
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  const exited = once(second.proc, "exit");
  second.proc.kill("SIGKILL");
  await exited;

  const third = await startServerProcess(t, db, env);
  assert.equal(await denseTop(third, TEXTS.d ?? ""), "d", "the item stored after the last save is found by dense search");
  await third.stop();
  const store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  const checks = await new VectorStore(store, join(db.dataDir, "indexes")).checkSavedIndexes().finally(() => store.close());
  for (const c of checks) assert.deepEqual([c.indexed, c.missing], [c.rows, 0], `${c.file} holds exactly the table's keys`);
  if (!db.databaseUrl) assert.equal(checks.length, 1, "SQLite keeps one index file for the collection");
});
