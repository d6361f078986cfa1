import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { JOB_KINDS } from "../../src/platform/jobs/catalog.js";
import { JobQueue } from "../../src/platform/jobs/queue.js";
import { JobWorker, type JobHandlers } from "../../src/platform/jobs/worker.js";
import { openStore, type Store } from "../../src/platform/store/db.js";
import { migrate } from "../../src/platform/store/migrate.js";
import { eventually } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe("durable job queue (contract, runs on each backend)", () => {
  let db: TestDb;
  let store: Store;
  let clock = 1_000_000;
  const now = (): number => clock;
  let queue: JobQueue;

  before(async () => {
    db = await createTestDb();
    store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
    await migrate(store);
    queue = new JobQueue(store, now);
  });
  after(async () => {
    await store.close();
    await db.drop();
  });

  test("enqueue, claim with a lease, complete once", async () => {
    const id = await queue.enqueue("database.provision", { databaseId: "d1" });
    const [job] = await queue.claim("w1", 10, 5_000);
    assert.equal(job?.id, id);
    assert.equal(job?.attempts, 1);
    assert.deepEqual(job?.payload, { databaseId: "d1" });
    assert.deepEqual(await queue.claim("w2", 10, 5_000), [], "a leased job is not handed out twice");
    assert.equal(await queue.complete(job), true);
    assert.equal(await queue.complete(job), false, "completion happens once");
    assert.equal((await queue.get(id))?.status, "completed");
  });

  test("an expired lease is reclaimed and the stale holder is fenced off", async () => {
    const id = await queue.enqueue("database.provision", { databaseId: "d2" });
    const [first] = await queue.claim("w1", 1, 1_000);
    assert.equal(first?.id, id);
    clock += 1_001;
    const [second] = await queue.claim("w2", 1, 1_000);
    assert.equal(second?.id, id);
    assert.equal(second?.attempts, 2);
    assert.equal(await queue.complete(first), false, "the stale worker cannot complete");
    assert.equal(await queue.extendLease(first, 1_000), false);
    assert.equal(await queue.complete(second), true);
  });

  test("a heartbeat extends the leases still held, hundreds at once, and none another worker took", async () => {
    for (let i = 0; i < 450; i++) await queue.enqueue("database.provision", { databaseId: `lease-${i}` });
    const held = await queue.claim("w1", 450, 1_000, ["database.provision"]);
    assert.equal(held.length, 450);
    clock += 1_001; // every lease expires; another worker takes 50 of the jobs
    const taken = await queue.claim("w2", 50, 1_000, ["database.provision"]);
    assert.equal(taken.length, 50);
    const takenIds = new Set(taken.map((j) => j.id));
    const extended = await queue.extendLeases(held, 5_000);
    assert.equal(extended.size, 400, "three statements' worth, less the 50 another worker holds");
    for (const j of held) assert.equal(extended.has(j.id), !takenIds.has(j.id));
    const sample = held.find((j) => !takenIds.has(j.id));
    assert.equal((await queue.get(sample?.id ?? ""))?.lease_expires_at, clock + 5_000);
    clock += 1_001; // w2's leases expire; w1's extended ones do not
    const again = await queue.claim("w3", 500, 1_000, ["database.provision"]);
    assert.deepEqual(new Set(again.map((j) => j.id)), takenIds, "only the jobs whose lease was not extended are claimed again");
    for (const j of [...held.filter((h) => !takenIds.has(h.id)), ...again]) assert.equal(await queue.complete(j), true);
  });

  test("one completion of jobs leased to several workers completes each held lease and no stale one", async () => {
    for (let i = 0; i < 4; i++) await queue.enqueue("database.provision", { databaseId: `owners-${i}` });
    const a = await queue.claim("wa", 2, 1_000, ["database.provision"]);
    const b = await queue.claim("wb", 2, 1_000, ["database.provision"]);
    assert.equal(a.length + b.length, 4);
    const both = await queue.completeMany([a[0]!, b[0]!, a[1]!, b[1]!]);
    assert.deepEqual(new Set(both), new Set([...a, ...b].map((j) => j.id)), "both workers' jobs, in one statement");

    for (let i = 0; i < 2; i++) await queue.enqueue("database.provision", { databaseId: `stale-${i}` });
    const c = await queue.claim("wc", 2, 1_000, ["database.provision"]);
    clock += 1_001; // wc's leases run out; wd takes the jobs
    const d = await queue.claim("wd", 2, 1_000, ["database.provision"]);
    assert.deepEqual(new Set(d.map((j) => j.id)), new Set(c.map((j) => j.id)));
    const held = await queue.completeMany([c[0]!, d[0]!, c[1]!, d[1]!]);
    assert.deepEqual(new Set(held), new Set(d.map((j) => j.id)), "wd's leases complete, wc's stale ones do not count");
    for (const j of d) assert.equal((await queue.get(j.id))?.status, "completed");
  });

  test("when more leases ran out than a claim takes, the oldest jobs are taken first, across kinds", async () => {
    const kinds = ["database.provision", "jobs.prune"] as const;
    // The newer jobs are of the kind that sorts first, and are enqueued first: neither kind, insertion
    // nor id order is run_at order.
    const newer: string[] = [];
    for (let i = 0; i < 5; i++) newer.push(await queue.enqueue("database.provision", { databaseId: `new-${i}` }, { runAt: clock - 500 + i }));
    const older: string[] = [];
    for (let i = 0; i < 3; i++) older.push(await queue.enqueue("jobs.prune", {}, { runAt: clock - 1_000 + i, dedupeKey: `old-${i}` }));
    const held = await queue.claim("w1", 10, 1_000, kinds);
    assert.equal(held.length, 8);
    clock += 1_001; // w1 died: every lease runs out
    const taken = await queue.claim("w2", 3, 1_000, kinds);
    assert.deepEqual(taken.map((j) => j.id).sort(), [...older].sort(), "the three with the earliest run_at");
    const rest = await queue.claim("w2", 10, 1_000, kinds);
    assert.deepEqual(rest.map((j) => j.id).sort(), [...newer].sort());
    for (const j of [...taken, ...rest]) assert.equal(await queue.complete(j), true);
  });

  test("failures retry with exponential backoff and are dead-lettered after maxAttempts", async () => {
    const id = await queue.enqueue("jobs.prune", {});
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [job] = await queue.claim("w", 1, 10_000, ["jobs.prune"]);
      assert.equal(job?.id, id, `attempt ${attempt}`);
      const outcome = await queue.fail(job, `boom ${attempt}`);
      const row = await queue.get(id);
      if (attempt < 3) {
        assert.equal(outcome, "retry");
        assert.equal(row?.status, "queued");
        delays.push(row.run_at - clock);
        assert.deepEqual(await queue.claim("w", 1, 10_000, ["jobs.prune"]), [], "not due before its backoff");
        clock = row.run_at;
      } else {
        assert.equal(outcome, "dead");
        assert.equal(row?.status, "dead");
        assert.equal(row?.last_error, "boom 3");
      }
    }
    assert.ok(delays[0]! >= 5_000 && delays[0]! <= 10_000, `first delay ${delays[0]}`);
    assert.ok(delays[1]! >= 5_000 && delays[1]! <= 20_000, `second delay ${delays[1]}`);
  });

  test("scheduled jobs wait for their time; dedupe keys enqueue once", async () => {
    const id = await queue.enqueue("database.provision", { databaseId: "later" }, { runAt: clock + 60_000 });
    await queue.enqueue("database.provision", { databaseId: "dup" }, { dedupeKey: "k1" });
    await queue.enqueue("database.provision", { databaseId: "dup" }, { dedupeKey: "k1" });
    const claimed = await queue.claim("w", 10, 1_000);
    assert.deepEqual(
      claimed.map((j) => j.payload),
      [{ databaseId: "dup" }],
    );
    for (const j of claimed) await queue.complete(j);
    clock += 60_000;
    const [later] = await queue.claim("w", 10, 1_000);
    assert.equal(later?.id, id);
    await queue.complete(later);
  });

  test("release gives a job back without counting an attempt", async () => {
    const id = await queue.enqueue("database.provision", { databaseId: "rel" });
    const [job] = await queue.claim("w", 1, 1_000);
    assert.equal(await queue.release(job!), true);
    const row = await queue.get(id);
    assert.equal(row?.status, "queued");
    assert.equal(row?.attempts, 0);
    const [again] = await queue.claim("w", 1, 1_000);
    assert.equal(again?.attempts, 1);
    await queue.complete(again);
  });

  test("a job the store refused (disk full, unreachable) waits for it without spending an attempt, even on its last", async () => {
    const liveQueue = new JobQueue(store);
    const outage = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    let refusals = 2;
    const provision: JobHandlers["database.provision"] = async () => {
      if (refusals-- > 0) throw outage;
    };
    const noop = async (): Promise<void> => undefined;
    const handlers = { ...Object.fromEntries(JOB_KINDS.map((k) => [k, noop])), "database.provision": provision } as unknown as JobHandlers;
    const id = await liveQueue.enqueue("database.provision", { databaseId: "outage" }, { runAt: 0 });
    const maxAttempts = (await liveQueue.get(id))!.max_attempts;
    // Its next claim is its last attempt.
    await store.db
      .updateTable("jobs")
      .set({ attempts: maxAttempts - 1 })
      .where("id", "=", id)
      .execute();
    const worker = new JobWorker(liveQueue, handlers, { workerId: "outage", concurrency: 1, leaseMs: 5_000, pollMs: 10, logger: silent });
    worker.start();
    try {
      for (let refused = 1; refused <= 2; refused++) {
        await eventually(async () => (await liveQueue.get(id))?.last_error !== null && refusals === 2 - refused);
        const row = await liveQueue.get(id);
        assert.equal(row?.status, "queued", "postponed, not dead-lettered");
        assert.equal(row?.attempts, maxAttempts - 1, "the attempt is given back");
        assert.match(row?.last_error ?? "", /disk is full/);
        await store.db.updateTable("jobs").set({ run_at: 0, last_error: null }).where("id", "=", id).execute();
        worker.wake();
      }
      await eventually(async () => (await liveQueue.get(id))?.status === "completed");
      assert.equal((await liveQueue.get(id))?.attempts, maxAttempts);
    } finally {
      await worker.stop(50);
    }
  });

  test("concurrent claimers never receive the same job", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 60; i++) ids.add(await queue.enqueue("database.provision", { databaseId: `c${i}` }));
    const other = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
    const otherQueue = new JobQueue(other, now);
    try {
      const rounds = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? queue : otherQueue).claim(`w${i}`, 7, 10_000)));
      const claimed = rounds.flat().map((j) => j.id);
      assert.equal(new Set(claimed).size, claimed.length, "no job claimed twice");
      for (const id of claimed) assert.ok(ids.has(id));
      const rest = await queue.claim("w", 100, 10_000);
      assert.equal(claimed.length + rest.length, 60);
      for (const j of [...rounds.flat(), ...rest]) await queue.complete(j);
    } finally {
      await other.close();
    }
  });

  test("a worker runs handlers, retries failures and on stop releases what is still running", async () => {
    const liveQueue = new JobQueue(store);
    let failuresLeft = 1;
    const seen: string[] = [];
    let unblock: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));
    const noop = async (): Promise<void> => undefined;
    const provision: JobHandlers["database.provision"] = async ({ databaseId }) => {
      seen.push(databaseId);
      if (databaseId === "flaky" && failuresLeft-- > 0) throw new Error("transient");
      if (databaseId === "slow") await blocked;
    };
    const handlers = { ...Object.fromEntries(JOB_KINDS.map((k) => [k, noop])), "database.provision": provision } as unknown as JobHandlers;
    const worker = new JobWorker(liveQueue, handlers, { workerId: "test", concurrency: 2, leaseMs: 5_000, pollMs: 10, logger: silent });
    const okId = await liveQueue.enqueue("database.provision", { databaseId: "ok" });
    const flakyId = await liveQueue.enqueue("database.provision", { databaseId: "flaky" });
    await store.db.updateTable("jobs").set({ run_at: 0 }).where("status", "=", "queued").execute();
    worker.start();
    await eventually(async () => (await liveQueue.get(okId))?.status === "completed");
    // the flaky job's retry is scheduled by backoff; make it due now rather than sleeping
    await eventually(async () => (await liveQueue.get(flakyId))?.status === "queued" && (await liveQueue.get(flakyId))!.attempts === 1);
    await store.db.updateTable("jobs").set({ run_at: 0 }).where("id", "=", flakyId).execute();
    await eventually(async () => (await liveQueue.get(flakyId))?.status === "completed");
    assert.equal((await liveQueue.get(flakyId))?.attempts, 2);

    const slowId = await liveQueue.enqueue("database.provision", { databaseId: "slow" }, { runAt: 0 });
    worker.wake();
    await eventually(async () => (await liveQueue.get(slowId))?.status === "running");
    await worker.stop(50);
    const slow = await liveQueue.get(slowId);
    assert.equal(slow?.status, "queued", "released on shutdown");
    assert.equal(slow?.lease_owner, null);
    assert.equal(slow?.attempts, 0);
    unblock();
    assert.deepEqual(seen.filter((s) => s !== "slow").sort(), ["flaky", "flaky", "ok"]);
  });
});
