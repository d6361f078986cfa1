import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { createReadyDatabase, field, startTestApp } from "../helpers/harness.js";

test("a server-side fault is 500 INTERNAL_ERROR in the envelope, without internals", async () => {
  const t = await startTestApp();
  try {
    await createReadyDatabase(t, "faulty");
    // Break the schema under the running service: a bug-like failure, not a client error.
    // As the tables' owner: on PostgreSQL the service's connections act as a role that may not.
    await t.app.store.asOwner((tx) => sql`DROP TABLE collections`.execute(tx));
    const res = await t.request("GET", "/databases/collections", { query: { database: "faulty" } });
    assert.equal(res.status, 500);
    assert.equal(field(res.body, "error.code"), "INTERNAL_ERROR");
    assert.equal(field(res.body, "error.message"), "Internal server error");
    assert.equal(field(res.body, "meta.request_id"), res.headers.get("x-request-id"));
    assert.doesNotMatch(res.text, /collections|sqlite|relation/i);
  } finally {
    await t.close();
  }
});

test("an unreachable store is 503 SERVICE_UNAVAILABLE with Retry-After, and /readyz reports it", async () => {
  const t = await startTestApp();
  try {
    const key = t.key;
    await t.app.store.close();
    const res = await t.request("GET", "/databases", { key });
    assert.equal(res.status, 503);
    assert.equal(field(res.body, "error.code"), "SERVICE_UNAVAILABLE");
    assert.equal(res.headers.get("retry-after"), "1");
    assert.equal((await t.request("GET", "/readyz", { key: null })).status, 503);
    assert.equal((await t.request("GET", "/healthz", { key: null })).status, 200, "the process itself is up");
  } finally {
    await t.app.server.close();
    await t.app.worker.stop(100);
    await t.db.drop();
  }
});
