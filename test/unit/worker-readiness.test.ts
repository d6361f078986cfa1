import assert from "node:assert/strict";
import { test } from "node:test";
import { workerReadiness, type WorkerProbe } from "../../src/features/system/worker-readiness.js";

// The stall rule needs a worker loop that stops going round, which a live process only shows when
// a claim hangs or its event loop is blocked: the decision itself is checked here on given facts.
const probe = (facts: Partial<WorkerProbe>): WorkerProbe => ({
  enabled: true,
  running: () => true,
  heartbeatAgeMs: () => 10,
  stallAfterMs: 30_000,
  depthByKind: async () => [
    { kind: "ingest.item", due: 2, delayed: 1, running: 3, oldestDueRunAt: 1_000 },
    { kind: "webhook.deliver", due: 1, delayed: 0, running: 0, oldestDueRunAt: 4_000 },
  ],
  ...facts,
});

test("worker readiness: running and fresh is ready; stopped or stalled is not; API-only nodes need no workers", async () => {
  const ok = await workerReadiness(probe({}), 5_000);
  assert.equal(ok.problem, null);
  assert.deepEqual(ok.queue, { due: 3, running: 3, delayed: 1, oldest_due_age_ms: 4_000 });
  assert.equal((await workerReadiness(probe({ running: () => false }), 5_000)).problem?.status, "workers not running");
  const stalled = await workerReadiness(probe({ heartbeatAgeMs: () => 30_001 }), 5_000);
  assert.equal(stalled.problem?.status, "workers stalled");
  assert.match(stalled.problem?.reason ?? "", /30001 ms/);
  assert.equal((await workerReadiness(probe({ enabled: false, running: () => false, heartbeatAgeMs: () => null }), 5_000)).problem, null);
  assert.equal((await workerReadiness(probe({ depthByKind: async () => [] }), 5_000)).queue.oldest_due_age_ms, null);
});
