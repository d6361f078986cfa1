import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";

describe("databases and collections", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ MAX_DATABASES_PER_ORG: "4" });
  });
  after(async () => t.close());

  test("create is accepted (202) and provisioning turns every infra flag true", async () => {
    const res = await t.request("POST", "/databases", { body: { database: "alpha" } });
    assert.equal(res.status, 202);
    assert.equal(field(res.body, "data.database"), "alpha");
    assert.equal(field(res.body, "meta.database"), "alpha");
    const infra = await eventually(async () => {
      const s = await t.request("GET", "/databases/status", { query: { database: "alpha" } });
      assert.equal(s.status, 200);
      return field<boolean>(s.body, "data.infra.ready_for_ingestion") ? field<Record<string, unknown>>(s.body, "data.infra") : null;
    });
    assert.deepEqual(infra, {
      ready_for_ingestion: true,
      scheduler_status: true,
      graph_status: true,
      vectorstore_status: { knowledge: true, memories: true },
    });
  });

  test("a taken name is 409 DATABASE_ALREADY_EXISTS", async () => {
    const res = await t.request("POST", "/databases", { body: { database: "alpha" } });
    assert.equal(res.status, 409);
    assert.equal(field(res.body, "error.code"), "DATABASE_ALREADY_EXISTS");
  });

  test("list, default collection and stats", async () => {
    const list = await t.request("GET", "/databases");
    const names = field<Array<{ database: string }>>(list.body, "data.databases").map((d) => d.database);
    assert.ok(names.includes("alpha"));
    const cols = await t.request("GET", "/databases/collections", { query: { database: "alpha" } });
    assert.deepEqual(field(cols.body, "data.collections"), ["alpha"]);
    const stats = await t.request("GET", "/databases/stats", { query: { database: "alpha" } });
    assert.equal(stats.status, 200);
    assert.equal(field(stats.body, "data.counts.collections"), 1);
    assert.equal(field(stats.body, "data.knowledge_collection.row_count"), 0);
  });

  test("database_metadata_schema is validated: bad field types are 422 VALIDATION_ERROR", async () => {
    const bad = [
      [{ name: "x", data_type: "NOPE" }],
      [{ name: "x", enable_match: "yes" }],
      [{ name: "1bad" }],
      [{ name: "x" }, { name: "x" }],
      [{ name: "n", data_type: "INT64", enable_dense_embedding: true }],
      "not a schema",
    ];
    for (const schema of bad) {
      const res = await t.request("POST", "/databases", { body: { database: "schema_bad", database_metadata_schema: schema } });
      assert.equal(res.status, 422, JSON.stringify(schema));
      assert.equal(field(res.body, "error.code"), "VALIDATION_ERROR");
    }
    const none = await t.request("GET", "/databases/status", { query: { database: "schema_bad" } });
    assert.equal(none.status, 404, "a rejected create stores nothing");
  });

  test("a valid schema is stored and PATCH adds fields", async () => {
    await createReadyDatabase(t, "with_schema", {
      database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true, enable_dense_embedding: true }],
    });
    const patch = await t.request("PATCH", "/databases/with_schema/metadata-schema", {
      body: { fields: [{ name: "priority", data_type: "INT64", enable_match: true }] },
    });
    assert.equal(patch.status, 200);
    const fields = field<Array<{ name: string; enable_match: boolean; enable_sparse_embedding: boolean }>>(patch.body, "data.database_metadata_schema");
    assert.deepEqual(
      fields.map((f) => f.name),
      ["team", "priority"],
    );
    assert.equal(fields[0]?.enable_match, true);
    assert.equal(fields[0]?.enable_sparse_embedding, false);
    const conflict = await t.request("PATCH", "/databases/with_schema/metadata-schema", {
      body: { fields: [{ name: "team", data_type: "INT64" }] },
    });
    assert.equal(conflict.status, 422);
    const missing = await t.request("PATCH", "/databases/nope/metadata-schema", { body: { fields: [] } });
    assert.equal(missing.status, 404);
    assert.equal(field(missing.body, "error.code"), "DATABASE_NOT_FOUND");
  });

  test("delete is asynchronous, frees the name and removes the data", async () => {
    await createReadyDatabase(t, "doomed");
    const del = await t.request("DELETE", "/databases", { body: { database: "doomed" } });
    assert.equal(del.status, 202);
    const gone = await t.request("GET", "/databases/status", { query: { database: "doomed" } });
    assert.equal(gone.status, 404);
    await eventually(async () => {
      const rows = await t.app.store.db.selectFrom("databases").select("id").where("name", "=", "doomed").execute();
      return rows.length === 0;
    });
    const again = await t.request("DELETE", "/databases", { query: { database: "doomed" } });
    assert.equal(again.status, 404);
    assert.equal(field(again.body, "error.code"), "DATABASE_NOT_FOUND");
    assert.equal((await t.request("POST", "/databases", { body: { database: "doomed" } })).status, 202);
  });

  test("organizations are isolated: another org's database behaves like a missing name", async () => {
    const other = await t.newOrgKey();
    const status = await t.request("GET", "/databases/status", { query: { database: "alpha" }, key: other.key });
    assert.equal(status.status, 404);
    assert.equal(field(status.body, "error.code"), "DATABASE_NOT_FOUND");
    const missing = await t.request("GET", "/databases/status", { query: { database: "never_created" }, key: other.key });
    assert.deepEqual(field(missing.body, "error.code"), field(status.body, "error.code"));
    assert.equal((await t.request("DELETE", "/databases", { body: { database: "alpha" }, key: other.key })).status, 404);
    assert.equal((await t.request("GET", "/databases/collections", { query: { database: "alpha" }, key: other.key })).status, 404);
    const list = await t.request("GET", "/databases", { key: other.key });
    assert.deepEqual(field(list.body, "data.databases"), []);
    assert.equal((await t.request("POST", "/databases", { body: { database: "alpha" }, key: other.key })).status, 202);
    assert.equal((await t.request("GET", "/databases/status", { query: { database: "alpha" } })).status, 200);
  });

  test("the per-organization database limit answers 403 FORBIDDEN", async () => {
    const org = await t.newOrgKey();
    for (let i = 0; i < 4; i++) {
      assert.equal((await t.request("POST", "/databases", { body: { database: `lim_${i}` }, key: org.key })).status, 202);
    }
    const res = await t.request("POST", "/databases", { body: { database: "lim_4" }, key: org.key });
    assert.equal(res.status, 403);
    assert.equal(field(res.body, "error.code"), "FORBIDDEN");
  });

  test("invalid database names are 400 INVALID_INPUT", async () => {
    for (const name of ["has space", "a/b", ""]) {
      const res = await t.request("POST", "/databases", { body: { database: name } });
      assert.equal(res.status, 400, name);
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
    }
  });
});
