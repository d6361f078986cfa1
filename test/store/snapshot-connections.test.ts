import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "kysely";
import type { Executor } from "../../src/platform/store/db.js";
import { inSystemScope } from "../../src/platform/store/row-scope.js";
import { startTestApp, type TestApp } from "../helpers/harness.js";

/*
 * A snapshot (a read transaction spanning awaits: graph context, subgraphs, exports) must not hold
 * back the process's other reads and writes while it is open. On SQLite it once ran on the one
 * reader connection, so every read of the process waited until it ended.
 */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const PREFIX = "snapshot-connections:";
const count = async (db: Executor): Promise<number> => {
  const rows = await sql<{ n: number | string }>`SELECT count(*) AS n FROM settings WHERE name LIKE ${`${PREFIX}%`}`.execute(db);
  return Number(rows.rows[0]?.n);
};
const insert = (db: Executor, name: string): Promise<unknown> =>
  db
    .insertInto("settings")
    .values({ name: `${PREFIX}${name}`, value: "x", created_at: Date.now() })
    .execute();

/** Settles with `work`, or rejects if it has not settled once `gate` (the open snapshot) would have to end first. */
async function whileOpen<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} waited for the open snapshot`)), 10_000);
  });
  try {
    return await Promise.race([work, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

test("reads and writes go on while a snapshot is open, and the snapshot keeps its own view", async () => {
  await inSystemScope(async () => {
    await insert(t.app.store.db, "before");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let seenAtStart = -1;
    let seenAtEnd = -1;
    const open = t.app.store.snapshot(async (tx) => {
      seenAtStart = await count(tx);
      await gate;
      seenAtEnd = await count(tx);
    });
    // The snapshot has read (so its view is fixed) before the others run.
    while (seenAtStart < 0) await new Promise((r) => setImmediate(r));
    await whileOpen(insert(t.app.store.db, "during"), "a write");
    assert.equal(await whileOpen(count(t.app.store.reader), "a read"), 2, "a read sees the write committed meanwhile");
    release();
    await open;
    assert.equal(seenAtStart, 1);
    assert.equal(seenAtEnd, 1, "the snapshot does not see what was committed after it began");
  });
});

test("more snapshots at once than the store keeps connections for all complete, each with its own view", async () => {
  await inSystemScope(async () => {
    const gates: Array<() => void> = [];
    const started: number[] = [];
    const snapshots = Array.from({ length: 12 }, (_, i) =>
      t.app.store.snapshot(async (tx) => {
        const n = await count(tx);
        started.push(i);
        await new Promise<void>((resolve) => gates.push(resolve));
        return n === (await count(tx));
      }),
    );
    // Release each snapshot as it gets going; those waiting for a connection start as others end.
    while (started.length < 12) {
      await new Promise((r) => setImmediate(r));
      gates.splice(0).forEach((release) => release());
    }
    assert.deepEqual(await Promise.all(snapshots), Array<boolean>(12).fill(true));
  });
});
