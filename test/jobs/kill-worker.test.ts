import assert from "node:assert/strict";
import { once } from "node:events";
import { after, test } from "node:test";
import { spawnTsx } from "../helpers/child-process.js";
import { createReadyDatabase, eventually, field, startTestApp } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

let db: TestDb | null = null;
after(async () => db?.drop());

test("a worker SIGKILLed while holding a lease: the job completes exactly once after the lease expires", { timeout: 120_000 }, async (t) => {
  db = await createTestDb();
  // An API-only node: it accepts the create but runs no jobs.
  const api = await startTestApp({ WORKERS: "0" }, db);
  const created = await api.request("POST", "/databases", { body: { database: "victim" } });
  assert.equal(created.status, 202);

  const child = spawnTsx(
    t,
    "test/fixtures/claim-and-hold.ts",
    { ...process.env, DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? "", LEASE_MS: "1500" },
    "pipe",
  );
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  await eventually(async () => out.includes("claimed"), 20_000);
  const jobId = /claimed (\S+)/.exec(out)?.[1];
  assert.ok(jobId);
  const killed = once(child, "exit");
  assert.equal(child.kill("SIGKILL"), true);
  const [code, signal] = (await killed) as [number | null, NodeJS.Signals | null];
  assert.equal(code, null);
  assert.equal(signal, "SIGKILL");

  const held = await api.app.queue.get(jobId);
  assert.equal(held?.status, "running");
  assert.match(held?.lease_owner ?? "", /^doomed-/);
  const status = await api.request("GET", "/databases/status", { query: { database: "victim" } });
  assert.equal(field(status.body, "data.infra.ready_for_ingestion"), false);
  await api.close();

  // A node with workers takes over once the dead worker's lease has expired.
  const worker = await startTestApp({ WORKERS: "2" }, db);
  try {
    await eventually(async () => (await worker.app.queue.get(jobId))?.status === "completed", 20_000);
    const job = await worker.app.queue.get(jobId);
    assert.equal(job?.attempts, 2, "one attempt by the killed worker, one that completed");
    assert.equal(job?.lease_owner, null);
    const jobs = await worker.app.store.db.selectFrom("jobs").selectAll().where("kind", "=", "database.provision").execute();
    assert.equal(jobs.length, 1, "no duplicate job was created");
    await createReadyDatabase(worker, "after_recovery");
    const ready = await worker.request("GET", "/databases/status", { query: { database: "victim" }, key: worker.key });
    // the database belongs to the first app's organization; check its row directly
    assert.equal(ready.status, 404);
    const row = await worker.app.store.db.selectFrom("databases").select("status").where("name", "=", "victim").executeTakeFirst();
    assert.equal(row?.status, "ready");
  } finally {
    await worker.close();
  }
});
