import assert from "node:assert/strict";
import { once } from "node:events";
import { after, test } from "node:test";
import { spawnTsx } from "../helpers/child-process.js";
import { eventually, startTestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import { freePort } from "../helpers/webhook-receiver.js";

let db: TestDb | null = null;
after(async () => db?.drop());

test("SIGKILL during a 500-item ingestion: after restart all 500 complete, none twice, none lost", { timeout: 600_000 }, async (t0) => {
  db = await createTestDb();
  const port = await freePort();
  const key = "crash-test-key-0123456789abcdefghij";
  const base = `http://127.0.0.1:${port}`;
  const proc = spawnTsx(t0, "src/main.ts", {
    ...process.env,
    PORT: String(port),
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl ?? "",
    BOOTSTRAP_API_KEY: key,
    LOG_LEVEL: "error",
    JOB_LEASE_MS: "2000",
  });
  const exited = once(proc, "exit");
  await eventually(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, 30_000, 100);
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "API-Version": "2" };
  assert.equal((await fetch(`${base}/databases`, { method: "POST", headers, body: JSON.stringify({ database: "crash" }) })).status, 202);
  await eventually(async () => {
    const s = (await (await fetch(`${base}/databases/status?database=crash`, { headers })).json()) as { data?: { infra?: { ready_for_ingestion?: boolean } } };
    return s.data?.infra?.ready_for_ingestion;
  });
  const items = Array.from({ length: 500 }, (_, i) => ({
    id: `c-${i}`,
    type: "note",
    content: { text: `Crash test item ${i}. It talks about subject ${i % 11} in two sentences.` },
  }));
  const res = await fetch(`${base}/context/ingest`, {
    method: "POST",
    headers,
    body: JSON.stringify({ type: "knowledge", database: "crash", app_knowledge: items }),
  });
  assert.equal(res.status, 202);

  // Kill mid-way: some items done, some in flight, most still queued.
  await eventually(
    async () => {
      const r = (await (
        await fetch(
          `${base}/context/status?database=crash&ids=${items
            .slice(0, 60)
            .map((i) => i.id)
            .join(",")}`,
          { headers },
        )
      ).json()) as {
        data: { statuses: Array<{ indexing_status: string }> };
      };
      return r.data.statuses.filter((s) => s.indexing_status === "completed").length >= 20;
    },
    60_000,
    20,
  );
  assert.equal(proc.kill("SIGKILL"), true);
  const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  assert.equal(signal, "SIGKILL");

  const t = await startTestApp({ JOB_LEASE_MS: "2000" }, db);
  try {
    const unfinishedBefore = await t.app.store.db.selectFrom("context_items").select("id").where("status", "<>", "completed").execute();
    assert.ok(unfinishedBefore.length > 0, "the kill happened mid-ingestion");
    const rows = await waitTerminal(
      t,
      "crash",
      items.map((i) => i.id),
      undefined,
      300_000,
      key,
    );
    assert.equal(rows.length, 500);
    assert.deepEqual([...new Set(rows.map((r) => r.indexing_status))], ["completed"]);
    const all = await t.app.store.db.selectFrom("context_items").select(["id", "chunk_count"]).execute();
    assert.equal(all.length, 500, "none lost, none duplicated");
    const chunks = await t.app.store.db.selectFrom("context_chunks").select(["item_id", "position"]).execute();
    const perItem = new Map<string, number[]>();
    for (const c of chunks) perItem.set(c.item_id, [...(perItem.get(c.item_id) ?? []), c.position]);
    for (const item of all) {
      const positions = perItem.get(item.id) ?? [];
      assert.equal(positions.length, item.chunk_count, "chunks written exactly once");
      assert.equal(new Set(positions).size, positions.length, "no duplicate chunk positions");
    }
    const vectors = await t.app.store.db.selectFrom("context_vectors").select("chunk_key").execute();
    assert.equal(vectors.length, chunks.length, "one vector per chunk");
  } finally {
    await t.close();
  }
});
