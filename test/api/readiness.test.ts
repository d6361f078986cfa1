import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { createTestDb } from "../helpers/test-db.js";

type Infra = { ready_for_ingestion: boolean; scheduler_status: boolean; graph_status: boolean; vectorstore_status: { knowledge: boolean; memories: boolean } };

const infra = async (t: TestApp, name: string, legacy = false): Promise<Infra> => {
  const res = legacy
    ? await t.request("GET", "/tenants/infra/status", { query: { tenant_id: name } })
    : await t.request("GET", "/databases/status", { query: { database: name } });
  assert.equal(res.status, 200, res.text);
  return field<Infra>(res.body, "data.infra");
};

test("data.infra: each flag measures its own part (provisioning, a stalled queue, workers elsewhere, the vector index folder)", async (t) => {
  // An API-only node: it runs no jobs, so provisioning waits for a worker somewhere.
  // Both nodes share one store, dropped only after both are closed (after hooks run in order).
  const db = await createTestDb();
  const api = await startTestApp({ WORKERS: "0" }, db);
  t.after(async () => {
    await api.close();
    await later.worker?.close();
    await db.drop();
  });
  const later: { worker?: TestApp } = {};
  assert.equal((await api.request("POST", "/databases", { body: { database: "r1" } })).status, 202);
  assert.deepEqual(
    await infra(api, "r1"),
    {
      ready_for_ingestion: false,
      scheduler_status: true,
      graph_status: true,
      vectorstore_status: { knowledge: true, memories: true },
    },
    "provisioning: not ready for ingestion; the provision job is young, so the queue is not stalled",
  );

  // The provision job has now waited two minutes and nobody took it: no scheduler runs.
  await api.app.store.db
    .updateTable("jobs")
    .set({ run_at: Date.now() - 120_000 })
    .where("status", "=", "queued")
    .execute();
  const stalled = await infra(api, "r1");
  assert.equal(stalled.scheduler_status, false);
  assert.equal(stalled.graph_status, false, "graphs are built by jobs");
  assert.equal(stalled.ready_for_ingestion, false);
  assert.deepEqual(await infra(api, "r1", true), stalled, "the legacy route reports the same");

  // A worker node joins on the same store: it provisions the database and drains the queue.
  later.worker = await startTestApp({}, db);
  const ready = await eventually(async () => {
    const now = await infra(api, "r1", false).catch(() => null);
    return now?.ready_for_ingestion && now.scheduler_status ? now : null;
  }, 15_000);
  assert.deepEqual(ready, { ready_for_ingestion: true, scheduler_status: true, graph_status: true, vectorstore_status: { knowledge: true, memories: true } });

  if (!api.db.databaseUrl) {
    // SQLite: the vector indexes live in DATA_DIR/indexes; a file in its place makes them unusable.
    const dir = join(api.db.dataDir, "indexes");
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, "not a directory");
    try {
      const broken = await infra(api, "r1");
      assert.deepEqual(broken.vectorstore_status, { knowledge: false, memories: false });
      assert.equal(broken.ready_for_ingestion, false);
      assert.equal(broken.scheduler_status, true);
    } finally {
      rmSync(dir, { force: true });
      mkdirSync(dir, { recursive: true });
    }
    assert.equal((await infra(api, "r1")).ready_for_ingestion, true);
  }
});

test("embeddings databases are refused with the reason; additional_context is accepted and changes nothing", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  for (const body of [
    { database: "emb", is_embeddings_tenant: true },
    { database: "emb", embeddings_dimension: 1536 },
  ]) {
    const res = await app.request("POST", "/databases", { body });
    assert.equal(res.status, 400, res.text);
    assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    assert.match(field<string>(res.body, "error.message"), /not supported/);
  }
  const legacy = await app.request("POST", "/tenants/create", { body: { tenant_id: "emb", is_embeddings_tenant: true, embeddings_dimension: 768 } });
  assert.equal(legacy.status, 400, legacy.text);
  const plain = await app.request("POST", "/databases", { body: { database: "emb", is_embeddings_tenant: false, embeddings_dimension: null } });
  assert.equal(plain.status, 202, "the defaults the SDK sends are accepted");

  await createReadyDatabase(app, "ctx");
  const item = { id: "kiln", type: "note", content: { text: "The pottery kiln fires at 1,200 degrees every Thursday." } };
  assert.equal((await app.request("POST", "/context/ingest", { body: { type: "knowledge", database: "ctx", app_knowledge: [item] } })).status, 202);
  await waitTerminal(app, "ctx", ["kiln"]);
  const ask = async (extra: Record<string, unknown>) => {
    const res = await app.request("POST", "/query", { body: { database: "ctx", query: "when does the kiln fire", ...extra } });
    assert.equal(res.status, 200, res.text);
    return field<Array<{ chunk_uuid: string; relevancy_score: number }>>(res.body, "data.chunks").map((c) => [c.chunk_uuid, c.relevancy_score]);
  };
  const without = await ask({});
  assert.ok(without.length > 0);
  assert.deepEqual(await ask({ additional_context: "the user is a potter in Leeds" }), without);
});
