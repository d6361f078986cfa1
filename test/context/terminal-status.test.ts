import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createBlobStore } from "../../src/features/items/blob-store.js";
import { ItemStore, movedKey } from "../../src/features/items/store.js";
import { ContextMaintenance } from "../../src/features/items/maintenance.js";
import type { JobContext } from "../../src/platform/jobs/worker.js";
import { createReadyDatabase, eventually, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { FAST_RETRIES } from "../helpers/webhook-fixtures.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

/** A job context for running a pipeline step by hand: its first attempt, never aborted. */
const firstAttempt = (): JobContext => ({
  job: { id: "by-hand", kind: "ingest.graph", payload: {}, attempts: 1, maxAttempts: 4, leaseOwner: "test" },
  signal: new AbortController().signal,
  completedIn: () => undefined, // no worker runs these attempts: nothing to tell
});

describe("a terminal status is never overwritten (fenced on state and generation)", () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    t = await startTestApp(FAST_RETRIES);
    receiver = await startReceiver();
    assert.equal((await t.request("POST", "/webhooks/indexing", { body: { url: receiver.url } })).status, 200);
    await createReadyDatabase(t, "fence");
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const itemRow = async (sourceId: string) =>
    t.app.store.db.selectFrom("context_items").select(["org_id", "id", "generation", "status"]).where("source_id", "=", sourceId).executeTakeFirstOrThrow();

  const eventsOf = (sourceId: string) => [...receiver.accepted.values()].filter((r) => r.json.item_id === sourceId).map((r) => r.json.indexing_status);

  it("a reconcile that read the item before its graph job finished leaves it completed: no errored event after completed", async () => {
    const body = {
      type: "knowledge",
      database: "fence",
      app_knowledge: [{ id: "late", type: "note", content: { text: "Grace Hopper wrote the first compiler." } }],
    };
    assert.equal((await t.request("POST", "/context/ingest", { body })).status, 202);
    const db = t.app.store.db;
    await waitTerminal(t, "fence", ["late"]);
    await eventually(async () => eventsOf("late").length >= 1);
    // Back to the moment of the race: the item searchable and stale, its graph job seen by
    // reconcile as finished (here: dead-lettered); before reconcile ends the item, a graph job
    // of that same generation completes it.
    const row = await itemRow("late");
    await db
      .updateTable("context_items")
      .set({ status: "graph_creation", updated_at: Date.now() - 10 * 60_000 })
      .where("id", "=", row.id)
      .execute();
    await db
      .updateTable("jobs")
      .set({ status: "dead", last_error: "lease expired too many times" })
      .where("dedupe_key", "=", `graph:${row.id}:${row.generation}`)
      .execute();
    const racing = new ContextMaintenance(
      t.app.store,
      createBlobStore(t.app.store, t.db.dataDir, t.app.server.log),
      t.app.vectors,
      async (id, generation, expected, error) => {
        assert.equal(expected, "graph_creation");
        await t.app.pipeline.buildGraph(id, generation, firstAttempt());
        assert.equal((await itemRow("late")).status, "completed", "the graph job completed the item first");
        return t.app.pipeline.endWithError(id, generation, expected, error);
      },
      [],
      60_000,
    );
    assert.equal(await racing.reconcile(), 0, "nothing ended");
    const [status] = await waitTerminal(t, "fence", ["late"]);
    assert.equal(status?.indexing_status, "completed");
    await eventually(async () => eventsOf("late").length >= 2);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(eventsOf("late"), ["completed", "completed"], "the replayed completion announced, no errored after it");
  });

  it("no status write leaves a terminal state: a late errored, a late completed, a replayed start", async () => {
    const body = {
      type: "knowledge",
      database: "fence",
      app_knowledge: [{ id: "done", type: "note", content: { text: "Alan Turing described a universal machine." } }],
    };
    assert.equal((await t.request("POST", "/context/ingest", { body })).status, 202);
    await waitTerminal(t, "fence", ["done"]);
    const row = await itemRow("done");
    assert.equal(row.status, "completed");
    const items = new ItemStore(t.app.store.db);
    const at = Date.now();
    const late = { code: "PROCESSING_FAILED", message: "late" };
    assert.equal((await items.setStatusMany([{ item: row }], ["graph_creation"], "errored", at, late)).size, 0);
    assert.equal((await items.setStatusMany([{ item: row }], ["queued", "processing"], "processing", at)).size, 0);
    assert.equal((await items.setStatusMany([{ item: row }], ["completed", "errored"], "errored", at)).size, 0, "terminal states are never a starting point");
    assert.equal(await t.app.pipeline.endWithError(row.id, row.generation, "graph_creation", { code: "PROCESSING_FAILED", message: "late" }), false);
    // A late graph job of the same generation (redelivered after a lost lease) changes nothing.
    await t.app.pipeline.buildGraph(row.id, row.generation, firstAttempt());
    assert.equal((await itemRow("done")).status, "completed");
    await eventually(async () => eventsOf("done").length >= 1);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(eventsOf("done"), ["completed"]);
  });

  it("a status write of several items at once fences each on its own generation and state", async () => {
    const body = {
      type: "knowledge",
      database: "fence",
      app_knowledge: ["m1", "m2", "m3"].map((id) => ({ id, type: "note", content: { text: `Note ${id} on the analytical engine.` } })),
    };
    assert.equal((await t.request("POST", "/context/ingest", { body })).status, 202);
    await waitTerminal(t, "fence", ["m1", "m2", "m3"]);
    const [m1, m2, m3] = await Promise.all(["m1", "m2", "m3"].map(itemRow));
    assert.ok(m1 && m2 && m3);
    // Put two of them back mid-pipeline, as a job would find them; m3 stays completed.
    await t.app.store.db.updateTable("context_items").set({ status: "processing" }).where("id", "in", [m1.id, m2.id]).execute();
    const items = new ItemStore(t.app.store.db);
    const moved = await items.setStatusMany(
      [
        { item: m1, extra: { chunk_count: 7 } },
        { item: { ...m1, generation: m1.generation + 1 } },
        { item: { ...m2, generation: m2.generation + 1 } },
        { item: m3, extra: { chunk_count: 7 } },
      ],
      ["processing"],
      "graph_creation",
      Date.now(),
    );
    assert.deepEqual([...moved], [movedKey(m1)], "only the item at its generation and in a `from` state moved, not another generation of it");
    const after = await t.app.store.db.selectFrom("context_items").select(["id", "status", "chunk_count"]).where("id", "in", [m1.id, m2.id, m3.id]).execute();
    const byId = new Map(after.map((r) => [r.id, r]));
    assert.deepEqual(byId.get(m1.id), { id: m1.id, status: "graph_creation", chunk_count: 7 });
    assert.equal(byId.get(m2.id)?.status, "processing", "a replaced generation is not written");
    assert.equal(byId.get(m3.id)?.status, "completed", "a terminal state is not left");
    assert.notEqual(byId.get(m3.id)?.chunk_count, 7);
  });
});
