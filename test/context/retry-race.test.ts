import assert from "node:assert/strict";
import { test } from "node:test";
import type { JobContext } from "../../src/platform/jobs/worker.js";
import { eventually } from "../helpers/harness.js";
import { appRunningJobsByHand } from "../helpers/hand-run-jobs.js";

/** A retried `ingest.item` attempt, as the worker runs it after an earlier one's lease expired. */
const attempt = (n: number): JobContext => ({
  job: { id: `by-hand-${n}`, kind: "ingest.item", payload: {}, attempts: n, maxAttempts: 4, leaseOwner: `test-${n}` },
  signal: new AbortController().signal,
  completedIn: () => undefined, // no worker runs these attempts: nothing to tell
});

// Found by the fault suite on PostgreSQL: two attempts of one item's job overlapped (the first's
// lease expired under load), the later one made the item searchable first, and the earlier one,
// arriving second, deleted the winner's chunks as "leftovers" before its status fence refused it.
test("an ingest attempt that loses the race to a later attempt leaves the winner's chunks alone", { timeout: 120_000 }, async (t) => {
  // Only this test runs the item's attempts.
  const { app, embeddings } = await appRunningJobsByHand(t, "race");
  const text = "Ada Lovelace wrote the first published algorithm for the Analytical Engine.";
  const ingest = await app.request("POST", "/context/ingest", {
    body: { type: "knowledge", database: "race", app_knowledge: [{ id: "raced", type: "note", content: { text } }] },
  });
  assert.equal(ingest.status, 202);
  const item = await app.app.store.db.selectFrom("context_items").select(["id", "generation"]).where("source_id", "=", "raced").executeTakeFirstOrThrow();

  // The loser starts first and waits in its embedding call; the winner runs through meanwhile.
  const release = embeddings.holdNext();
  const loser = app.app.pipeline.process(item.id, item.generation, attempt(2));
  await eventually(async () => embeddings.requests.length >= 1);
  await app.app.pipeline.process(item.id, item.generation, attempt(3));
  const chunksAfterWinner = await app.app.store.db.selectFrom("context_chunks").select("chunk_uuid").where("item_id", "=", item.id).execute();
  assert.ok(chunksAfterWinner.length >= 1, "the winner made the item searchable");
  release();
  await loser;

  const row = await app.app.store.db.selectFrom("context_items").select(["status", "chunk_count"]).where("id", "=", item.id).executeTakeFirstOrThrow();
  assert.equal(row.status, "graph_creation", "the loser did not move the status");
  const chunks = await app.app.store.db.selectFrom("context_chunks").select("chunk_uuid").where("item_id", "=", item.id).execute();
  assert.deepEqual(
    chunks.map((c) => c.chunk_uuid),
    chunksAfterWinner.map((c) => c.chunk_uuid),
    "the winner's chunks are all still there",
  );
  assert.equal(chunks.length, row.chunk_count);
  const query = await app.request("POST", "/query", { body: { database: "race", query: "Analytical Engine algorithm", query_by: "text" } });
  assert.equal(query.status, 200);
  assert.match(JSON.stringify(query.body), /Ada Lovelace/);
});
