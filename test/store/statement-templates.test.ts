import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "kysely";
import { statementTemplate } from "../../src/platform/store/statement-templates.js";
import type { JobRow } from "../../src/platform/jobs/job-store.js";
import { startTestApp, type TestApp } from "../helpers/harness.js";

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => t.close());

const job = (id: string, runAt: number, payload: string): JobRow => ({
  id,
  kind: "template.test",
  payload,
  status: "queued",
  attempts: 0,
  max_attempts: 3,
  run_at: runAt,
  lease_owner: null,
  lease_expires_at: null,
  last_error: null,
  dedupe_key: null,
  created_at: runAt,
  updated_at: runAt,
  completed_at: null,
});

const inserts = statementTemplate(
  (rows: readonly JobRow[]) => String(rows.length),
  (db, rows) => db.insertInto("jobs").values(rows),
);
/** Its own constant ("template.test") stays in the statement; the ids and the new payload are values. */
const payloadUpdates = statementTemplate(
  (v: { ids: readonly string[]; payload: string }) => String(v.ids.length),
  (db, v) => db.updateTable("jobs").set({ payload: v.payload }).where("kind", "=", "template.test").where("id", "in", v.ids).returning(["id", "payload"]),
);

const stored = async (prefix: string) =>
  (await t.app.store.db.selectFrom("jobs").select(["id", "payload", "run_at"]).where("id", "like", `${prefix}%`).orderBy("id").execute()).map((r) => ({
    ...r,
    run_at: Number(r.run_at),
  }));

test("a template writes each run's own values, for every shape, as kysely's statement would", async () => {
  await inserts.run(t.app.store.db, [job("tpl-a1", 1, "one"), job("tpl-a2", 2, "two")]);
  // Same shape (two rows), other values: the compiled text is reused, the parameters are new.
  await inserts.run(t.app.store.db, [job("tpl-a3", 3, "three"), job("tpl-a4", 4, "four")]);
  // Another shape.
  await inserts.run(t.app.store.db, [job("tpl-a5", 5, "five")]);
  assert.deepEqual(await stored("tpl-a"), [
    { id: "tpl-a1", payload: "one", run_at: 1 },
    { id: "tpl-a2", payload: "two", run_at: 2 },
    { id: "tpl-a3", payload: "three", run_at: 3 },
    { id: "tpl-a4", payload: "four", run_at: 4 },
    { id: "tpl-a5", payload: "five", run_at: 5 },
  ]);

  const first = await payloadUpdates.run(t.app.store.db, { ids: ["tpl-a1", "tpl-a3"], payload: "changed" });
  const second = await payloadUpdates.run(t.app.store.db, { ids: ["tpl-a2", "tpl-a4"], payload: "again" });
  assert.deepEqual(first.map((r) => r.id).sort(), ["tpl-a1", "tpl-a3"]);
  assert.deepEqual(
    second.map((r) => r.payload),
    ["again", "again"],
  );
  assert.deepEqual(
    (await stored("tpl-a")).map((r) => r.payload),
    ["changed", "again", "changed", "again", "five"],
  );
});

test("a template reads each row by its keys: rows listing them in another order are stored right", async () => {
  await inserts.run(t.app.store.db, [job("tpl-d1", 1, "first")]);
  // The same keys, reversed (as another builder of rows might list them), and one row again.
  const reversed = Object.fromEntries(Object.entries(job("tpl-d2", 2, "second")).reverse()) as unknown as JobRow;
  await inserts.run(t.app.store.db, [reversed]);
  assert.deepEqual(await stored("tpl-d"), [
    { id: "tpl-d1", payload: "first", run_at: 1 },
    { id: "tpl-d2", payload: "second", run_at: 2 },
  ]);
  // Other keys with as many values is another layout, refused.
  const { dedupe_key: _dropped, ...rest } = job("tpl-d3", 3, "third");
  const renamed = { ...rest, extra_column: null } as unknown as JobRow;
  await assert.rejects(inserts.run(t.app.store.db, [renamed]), /does not fix its values' layout/);
  assert.equal((await stored("tpl-d")).length, 2);
});

test("a template runs in the transaction it is given: a rollback takes its rows back", async () => {
  await assert.rejects(
    t.app.store.transaction(async (tx) => {
      await inserts.run(tx, [job("tpl-b1", 1, "rolled back")]);
      assert.equal((await tx.selectFrom("jobs").select("id").where("id", "=", "tpl-b1").execute()).length, 1);
      throw new Error("roll back");
    }),
    /roll back/,
  );
  assert.deepEqual(await stored("tpl-b"), []);
});

test("a template refuses values it cannot bind, and writes nothing", async () => {
  const withUndefined = { ...job("tpl-c1", 1, "x"), last_error: undefined } as unknown as JobRow;
  await assert.rejects(inserts.run(t.app.store.db, [withUndefined]), /undefined value/);
  const withSql = { ...job("tpl-c2", 1, "x"), attempts: sql<number>`1 + 1` } as unknown as JobRow;
  await assert.rejects(inserts.run(t.app.store.db, [withSql]), /SQL among its values/);
  // A shape that does not fix the layout: one key for one row and for two.
  const careless = statementTemplate(
    (_rows: readonly JobRow[]) => "always the same",
    (db, rows) => db.insertInto("jobs").values(rows),
  );
  await careless.run(t.app.store.db, [job("tpl-c3", 1, "x")]);
  await assert.rejects(careless.run(t.app.store.db, [job("tpl-c4", 1, "x"), job("tpl-c5", 1, "x")]), /does not fix its values' layout/);
  assert.deepEqual(
    (await stored("tpl-c")).map((r) => r.id),
    ["tpl-c3"],
  );
});
