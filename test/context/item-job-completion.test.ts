import assert from "node:assert/strict";
import { test } from "node:test";
import type { Executor } from "../../src/platform/store/db.js";
import { appRunningJobsByHand } from "../helpers/hand-run-jobs.js";

// An item's `ingest.item` job completes in the transaction that makes the item searchable (one
// transaction for both, not one more per group of jobs), and the worker is told so.
test("an item's indexing job is completed by the write that makes the item searchable", { timeout: 120_000 }, async (t) => {
  // This test claims and runs the job, as a worker would.
  const { app } = await appRunningJobsByHand(t, "acked");
  const ingest = await app.request("POST", "/context/ingest", {
    body: {
      type: "knowledge",
      database: "acked",
      app_knowledge: [{ id: "acked-1", type: "note", content: { text: "Grace Hopper wrote the first compiler." } }],
    },
  });
  assert.equal(ingest.status, 202);
  const item = await app.app.store.db.selectFrom("context_items").select(["id", "generation"]).where("source_id", "=", "acked-1").executeTakeFirstOrThrow();
  const [job] = await app.app.queue.claim("test", 1, 60_000, ["ingest.item"]);
  assert.ok(job, "the item's job was queued");

  const told: Executor[] = [];
  await app.app.pipeline.process(item.id, item.generation, { job, signal: new AbortController().signal, completedIn: (tx) => told.push(tx) });

  const status = await app.app.store.db.selectFrom("context_items").select("status").where("id", "=", item.id).executeTakeFirstOrThrow();
  assert.equal(status.status, "graph_creation", "the item is searchable");
  const row = await app.app.store.db.selectFrom("jobs").select(["status", "lease_owner"]).where("id", "=", job.id).executeTakeFirstOrThrow();
  assert.deepEqual(row, { status: "completed", lease_owner: null }, "its job was completed without the worker");
  assert.equal(told.length, 1, "the worker is told the job is complete");
});
