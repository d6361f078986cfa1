import assert from "node:assert/strict";
import { test } from "node:test";
import { JOB_KINDS } from "../../src/platform/jobs/catalog.js";
import { combineJobHandlers, type JobHandlerSet } from "../../src/platform/jobs/job-handlers.js";
import type { JobContext, JobHandlers } from "../../src/platform/jobs/worker.js";

const calls: string[] = [];
function setOf<K extends (typeof JOB_KINDS)[number]>(kinds: readonly K[]): JobHandlerSet<K> {
  return Object.fromEntries(kinds.map((k) => [k, async () => void calls.push(k)])) as unknown as JobHandlerSet<K>;
}

const databases = setOf(["database.provision", "database.delete"] as const);
const ingestion = setOf(["ingest.item", "ingest.graph", "ingest.reconcile", "memory.purge-expired"] as const);
const rest = setOf(["webhook.deliver", "connector.sync", "connector.schedule", "jobs.prune"] as const);

test("the features' handler sets combine into one handler per job kind of the catalog", async () => {
  const handlers: JobHandlers = combineJobHandlers(databases, ingestion, rest);
  assert.deepEqual(Object.keys(handlers).sort(), [...JOB_KINDS].sort());
  const ctx = {} as JobContext;
  await handlers["ingest.graph"]({ itemId: "i", generation: 1 }, ctx);
  await handlers["jobs.prune"]({}, ctx);
  assert.deepEqual(calls, ["ingest.graph", "jobs.prune"]);
});

test("the compiler refuses a missing or a repeated handler (tsc in npm test fails if it stops refusing)", () => {
  // @ts-expect-error -- no set handles the webhook, connector and prune jobs
  const missing: JobHandlers = combineJobHandlers(databases, ingestion);
  // @ts-expect-error -- two sets handle database.delete
  const repeated: JobHandlers = combineJobHandlers(databases, ingestion, rest, setOf(["database.delete"] as const));
  assert.equal(Object.keys(missing).length, 6);
  assert.equal(Object.keys(repeated).length, JOB_KINDS.length);
});
