import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { BackgroundGate } from "../../src/platform/jobs/background-gate.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";

describe("BackgroundGate", () => {
  it("admits everything while the foreground is idle, one job with a rest while it is busy", () => {
    let busy = false;
    let now = 1_000;
    const gate = new BackgroundGate(
      () => busy,
      0.1,
      () => now,
    );
    assert.equal(gate.admit(4, 0), 4);
    busy = true;
    assert.equal(gate.admit(4, 1), 0, "one at a time while busy");
    assert.equal(gate.admit(4, 0), 1);
    gate.finished(50); // ran 50 ms beside the foreground: rests 450 ms for a 10% share
    assert.equal(gate.admit(4, 0), 0);
    now += 449;
    assert.equal(gate.admit(4, 0), 0);
    now += 1;
    assert.equal(gate.admit(4, 0), 1, "never starved");
    busy = false;
    gate.finished(50);
    assert.equal(gate.admit(3, 0), 3, "no rest once the foreground is idle");
    assert.throws(() => new BackgroundGate(() => true, 0), RangeError);
  });
});

describe("the graph job (graph_creation -> completed)", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "gj");
  });
  after(async () => t.close());

  it("is enqueued when an item becomes searchable and completes it; reconcile ends an item whose graph job died", async () => {
    const items = [1, 2].map((i) => ({
      id: `g${i}`,
      type: "note",
      title: `Note ${i}`,
      content: { text: `Ada Lovelace met Charles Babbage in London, note ${i}.` },
    }));
    assert.equal((await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "gj", app_knowledge: items } })).status, 202);
    await waitTerminal(t, "gj", ["g1", "g2"]);
    const db = t.app.store.db;
    const rows = await db
      .selectFrom("context_items")
      .select(["id", "source_id", "generation", "status"])
      .where("source_id", "in", ["g1", "g2"])
      .orderBy("source_id")
      .execute();
    assert.deepEqual(
      rows.map((r) => r.status),
      ["completed", "completed"],
    );
    const jobs = await db.selectFrom("jobs").select(["kind", "status", "dedupe_key"]).where("kind", "=", "ingest.graph").execute();
    for (const r of rows) assert.ok(jobs.some((j) => j.dedupe_key === `graph:${r.id}:${r.generation}` && j.status === "completed"));

    // g1: searchable, its graph job dead-lettered; g2: searchable, its graph job still queued. Both stale.
    const [g1, g2] = rows as [(typeof rows)[number], (typeof rows)[number]];
    const stale = Date.now() - 10 * 60_000;
    await db.updateTable("context_items").set({ status: "graph_creation", updated_at: stale }).where("id", "in", [g1.id, g2.id]).execute();
    await db.updateTable("jobs").set({ status: "dead", last_error: "worker kept dying" }).where("dedupe_key", "=", `graph:${g1.id}:${g1.generation}`).execute();
    await db
      .updateTable("jobs")
      .set({ status: "queued", run_at: Date.now() + 3_600_000 })
      .where("dedupe_key", "=", `graph:${g2.id}:${g2.generation}`)
      .execute();
    assert.equal(await t.app.maintenance.reconcile(), 1);
    const res = await t.request("GET", "/context/status?database=gj&ids=g1,g2");
    const statuses = field<Array<{ id: string; indexing_status: string; error_code: string | null; message: string | null }>>(res.body, "data.statuses");
    const byId = new Map(statuses.map((s) => [s.id, s]));
    assert.equal(byId.get("g1")?.indexing_status, "errored");
    assert.equal(byId.get("g1")?.error_code, "PROCESSING_FAILED");
    assert.match(byId.get("g1")?.message ?? "", /worker kept dying/);
    assert.equal(byId.get("g2")?.indexing_status, "graph_creation", "a queued graph job is left to run");
  });
});
