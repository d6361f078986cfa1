import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { JOB_KINDS, type JobKind } from "../../src/platform/jobs/catalog.js";
import { JobQueue } from "../../src/platform/jobs/queue.js";
import { JobWorker, type JobHandlers } from "../../src/platform/jobs/worker.js";
import { openStore, type Store } from "../../src/platform/store/db.js";
import { migrate } from "../../src/platform/store/migrate.js";
import { eventually } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe("enqueueing wakes this process's workers, after the commit (runs on each backend)", () => {
  let db: TestDb;
  let store: Store;

  before(async () => {
    db = await createTestDb();
    store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
    await migrate(store);
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  test("listeners hear of a job at once outside a transaction, after COMMIT inside one, never after a rollback", async () => {
    const queue = new JobQueue(store);
    const heard: JobKind[] = [];
    const unsubscribe = queue.onEnqueued((kind) => heard.push(kind));

    await queue.enqueue("database.provision", { databaseId: "autocommit" });
    assert.deepEqual(heard, ["database.provision"]);

    let inside: JobKind[] = [];
    await store.transaction(async (tx) => {
      await queue.enqueueMany("ingest.graph", [{ payload: { itemId: "i", generation: 1 } }], { executor: tx });
      inside = [...heard];
    });
    assert.deepEqual(inside, ["database.provision"], "not told before the transaction committed");
    assert.deepEqual(heard, ["database.provision", "ingest.graph"], "told once it committed");

    let rolledBack = "";
    await assert.rejects(
      store.transaction(async (tx) => {
        rolledBack = await queue.enqueue("database.delete", { databaseId: "gone" }, { executor: tx });
        throw new Error("roll back");
      }),
      /roll back/,
    );
    assert.equal(await queue.get(rolledBack), undefined, "the job was rolled back");
    assert.deepEqual(heard, ["database.provision", "ingest.graph"], "a rolled-back job is never announced");

    unsubscribe();
    await queue.enqueue("database.provision", { databaseId: "unheard" });
    assert.equal(heard.length, 2, "an unsubscribed listener hears nothing more");
  });

  test("a worker polling once a minute runs a job enqueued in a transaction of this process without waiting for its poll", async () => {
    const queue = new JobQueue(store);
    let ran: (databaseId: string) => void = () => undefined;
    const done = new Promise<string>((resolve) => (ran = resolve));
    const noop = async (): Promise<void> => undefined;
    const provision: JobHandlers["database.provision"] = async ({ databaseId }) => ran(databaseId);
    const handlers = { ...Object.fromEntries(JOB_KINDS.map((k) => [k, noop])), "database.provision": provision } as unknown as JobHandlers;
    // Clear what the earlier test left, so the worker's first claim finds nothing and it rests.
    await store.db.deleteFrom("jobs").execute();
    const worker = new JobWorker(queue, handlers, { workerId: "wake", concurrency: 1, leaseMs: 60_000, pollMs: 60_000, logger: silent, schedules: false });
    worker.start();
    await eventually(async () => worker.resting);
    let timer: NodeJS.Timeout | undefined;
    try {
      await store.transaction(async (tx) => {
        await queue.enqueue("database.provision", { databaseId: "woken" }, { executor: tx });
      });
      // The property: the job runs long before the worker's next poll (60 s) would find it.
      const timeout = new Promise<string>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the worker was not woken by the enqueue")), 10_000);
      });
      assert.equal(await Promise.race([done, timeout]), "woken");
    } finally {
      clearTimeout(timer);
      await worker.stop(1_000);
    }
  });
});
