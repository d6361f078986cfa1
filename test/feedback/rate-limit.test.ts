import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";
import { loggedQuery } from "../helpers/webhook-fixtures.js";
import { createTestDb } from "../helpers/test-db.js";

test("100 submissions per minute per organization, counted in the store across processes; the 101st is 429 with Retry-After", async () => {
  const db = await createTestDb();
  // Two service processes on one store: the limit is the organization's, not a process's.
  const a = await startTestApp({ WORKERS: "0" }, db);
  const b = await startTestApp({ WORKERS: "0" }, db);
  try {
    const requestId = await loggedQuery(a);
    const body = { request_id: requestId, feedback: "ok" };

    // Invalid submissions are not stored and do not count.
    for (let i = 0; i < 5; i++) assert.equal((await a.request("POST", "/feedback", { body: { request_id: requestId } })).status, 400);
    for (let i = 0; i < 100; i++) {
      const node = i % 2 === 0 ? a : b;
      const res = await node.request("POST", "/feedback", { body, key: a.key });
      assert.equal(res.status, 201, `submission ${i + 1}: ${res.text}`);
    }
    for (const node of [a, b]) {
      const res = await node.request("POST", "/feedback", { body, key: a.key });
      assert.equal(res.status, 429);
      assert.equal(field(res.body, "error.code"), "RATE_LIMITED");
      const retryAfter = Number(res.headers.get("retry-after"));
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.match(field<string>(res.body, "error.message"), new RegExp(`${retryAfter} seconds`));
    }
    const rows = await a.app.store.db.selectFrom("feedback").select("id").where("org_id", "=", a.orgId).execute();
    assert.equal(rows.length, 100, "refused submissions are not stored");

    // Another organization has its own budget.
    const other = await a.newOrgKey();
    const otherQuery = await loggedQuery(a, other.orgId);
    assert.equal((await b.request("POST", "/feedback", { body: { request_id: otherQuery, feedback: "ok" }, key: other.key })).status, 201);

    // Once the window has moved on, submissions are accepted again (the rows age, no sleeping).
    await a.app.store.db
      .updateTable("feedback")
      .set((eb) => ({ created_at: eb("created_at", "-", 61_000) }))
      .where("org_id", "=", a.orgId)
      .execute();
    assert.equal((await a.request("POST", "/feedback", { body, key: a.key })).status, 201);
  } finally {
    await a.close();
    await b.close();
    await db.drop();
  }
});

test("concurrent submissions cannot overshoot the limit", async () => {
  const t = await startTestApp({ WORKERS: "0" });
  try {
    const requestId = await loggedQuery(t);
    const results = await Promise.all(
      Array.from({ length: 130 }, () => t.request("POST", "/feedback", { body: { request_id: requestId, feedback: "burst" } })),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 100);
    assert.equal(statuses.filter((s) => s === 429).length, 30);
  } finally {
    await t.close();
  }
});

test("a server failure while storing feedback answers 500 and stores nothing", async () => {
  const t = await startTestApp({ WORKERS: "0" });
  try {
    const requestId = await loggedQuery(t);
    // A fault after the row is written, inside the same transaction.
    if (t.app.store.backend === "postgres") {
      await sqlRaw(t, `CREATE FUNCTION feedback_fault() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$ LANGUAGE plpgsql`);
      await sqlRaw(t, `CREATE TRIGGER feedback_fault AFTER INSERT ON feedback FOR EACH ROW EXECUTE FUNCTION feedback_fault()`);
    } else {
      await sqlRaw(t, `CREATE TRIGGER feedback_fault AFTER INSERT ON feedback BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    }
    const res = await t.request("POST", "/feedback", { body: { request_id: requestId, feedback: "x" } });
    assert.equal(res.status, 500);
    assert.equal(field(res.body, "error.code"), "INTERNAL_ERROR");
    assert.doesNotMatch(res.text, /disk on fire/);
    const rows = await t.app.store.db.selectFrom("feedback").select("id").execute();
    assert.equal(rows.length, 0);

    await sqlRaw(t, "DROP TRIGGER feedback_fault" + (t.app.store.backend === "postgres" ? " ON feedback" : ""));
    assert.equal((await t.request("POST", "/feedback", { body: { request_id: requestId, feedback: "x" } })).status, 201, "a retry is safe");
  } finally {
    await t.close();
  }
});

/** Schema changes, as the tables' owner: on PostgreSQL the service's connections act as a role that may not. */
async function sqlRaw(t: TestApp, statement: string): Promise<void> {
  await t.app.store.asOwner((tx) => sql.raw(statement).execute(tx));
}
