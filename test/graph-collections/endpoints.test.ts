import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { assertDetailError, createGraphDatabase, graphClient } from "./graph-client.js";

describe("graph area endpoints", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t.close());

  test("POST /byog/databases answers {success, database, status: ready}; the database is ready at once", async () => {
    const res = await t.request("POST", "/byog/databases", { body: { database: "g1" } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true, database: "g1", status: "ready" });
    const status = await t.request("GET", "/databases/status", { query: { database: "g1" } });
    assert.equal(field(status.body, "data.status"), "ready");
    assert.equal(field(status.body, "data.infra.ready_for_ingestion"), true);
    const list = await t.request("GET", "/databases");
    const entry = field<Array<{ database: string; kind: string; status: string }>>(list.body, "data.databases").find((d) => d.database === "g1");
    assert.deepEqual({ kind: entry?.kind, status: entry?.status }, { kind: "graph", status: "ready" });
  });

  test("a name taken by any database of the organization is 409, in the {detail} shape", async () => {
    assertDetailError(await t.request("POST", "/byog/databases", { body: { database: "g1" } }), 409, "DATABASE_ALREADY_EXISTS");
    await createReadyDatabase(t, "ctx1");
    assertDetailError(await t.request("POST", "/byog/databases", { body: { database: "ctx1" } }), 409, "DATABASE_ALREADY_EXISTS");
    const conflict = await t.request("POST", "/databases", { body: { database: "g1" } });
    assert.equal(conflict.status, 409);
  });

  test("database names have no charset restriction in the graph area", async () => {
    await createGraphDatabase(t, "my graph/ü?#%");
    const g = graphClient(t, "my graph/ü?#%");
    await g.rows("c", "CREATE (:A)");
    assert.deepEqual(await g.collections(), ["c"]);
  });

  test("collections appear on first write; reading a never-written one gives zero rows and creates nothing", async () => {
    await createGraphDatabase(t, "g2");
    const g = graphClient(t, "g2");
    assert.deepEqual(await g.collections(), []);
    assert.deepEqual(await g.rows("people", "MATCH (n) RETURN n"), []);
    assert.deepEqual(await g.rows("people", "RETURN 1 AS one"), [{ one: 1 }]);
    assert.deepEqual(await g.collections(), []);
    assert.deepEqual(await g.rows("people", "CREATE (:Person {name: 'Ann'})"), []);
    assert.deepEqual(await g.rows("places", "MERGE (:City {name: 'Oslo'})"), []);
    assert.deepEqual(await g.collections(), ["people", "places"]);
    const cols = await t.request("GET", "/databases/collections", { query: { database: "g2" } });
    assert.deepEqual(field(cols.body, "data.collections"), ["people", "places"]);
    const stats = await t.request("GET", "/databases/stats", { query: { database: "g2" } });
    assert.deepEqual([field(stats.body, "data.counts.graph_collections"), field(stats.body, "data.counts.graph_nodes")], [2, 2]);
  });

  test("collections are independent graphs", async () => {
    const g = graphClient(t, "g2");
    assert.deepEqual(await g.rows("people", "MATCH (n) RETURN labels(n) AS l"), [{ l: ["Person"] }]);
    assert.deepEqual(await g.rows("places", "MATCH (n) RETURN labels(n) AS l"), [{ l: ["City"] }]);
  });

  test("GET /byog/collections and POST /byog/query answer 404 for an unknown database", async () => {
    assertDetailError(await t.request("GET", "/byog/collections", { query: { database: "nope" } }), 404, "DATABASE_NOT_FOUND");
    assertDetailError(await graphClient(t, "nope").query("c", "RETURN 1"), 404, "DATABASE_NOT_FOUND");
    assertDetailError(await t.request("DELETE", "/byog/collections", { body: { database: "nope", collection: "c" } }), 404, "DATABASE_NOT_FOUND");
    assertDetailError(await t.request("DELETE", "/byog/databases", { body: { database: "nope" } }), 404, "DATABASE_NOT_FOUND");
  });

  test("another organization's graph databases behave like missing ones", async () => {
    const other = await t.newOrgKey();
    assertDetailError(await t.request("GET", "/byog/collections", { query: { database: "g2" }, key: other.key }), 404, "DATABASE_NOT_FOUND");
    assertDetailError(await graphClient(t, "g2", other.key).query("people", "MATCH (n) RETURN n"), 404, "DATABASE_NOT_FOUND");
    await createGraphDatabase(t, "g2", other.key);
    assert.deepEqual(await graphClient(t, "g2", other.key).rows("people", "MATCH (n) RETURN n"), []);
  });

  test("collection names must match ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$ (400 INVALID_INPUT)", async () => {
    const g = graphClient(t, "g2");
    for (const bad of ["", "_x", "-x", "a b", "a.b", "ü", "a/b", "x".repeat(65)]) {
      assertDetailError(await g.query(bad, "RETURN 1"), 400, "INVALID_INPUT");
      assertDetailError(await t.request("DELETE", "/byog/collections", { body: { database: "g2", collection: bad } }), 400, "INVALID_INPUT");
    }
    for (const good of ["a", "0", "A-b_c", "x".repeat(64)]) assert.deepEqual(await g.rows(good, "RETURN 1 AS x"), [{ x: 1 }]);
  });

  test("missing fields and wrong types are 400 INVALID_INPUT", async () => {
    const bodies: unknown[] = [
      {},
      { database: "g2", collection: "c" },
      { database: "g2", query: "RETURN 1" },
      { database: "g2", collection: "c", query: 5 },
      { database: "g2", collection: "c", query: "RETURN 1", params: [1] },
    ];
    for (const body of bodies) assertDetailError(await t.request("POST", "/byog/query", { body }), 400, "INVALID_INPUT");
    assertDetailError(await t.request("GET", "/byog/collections"), 400, "INVALID_INPUT");
    assertDetailError(await t.request("POST", "/byog/databases", { body: {} }), 400, "INVALID_INPUT");
  });

  test("a missing or invalid key is 403 in the {detail} shape on every graph route", async () => {
    const routes: Array<[string, string, unknown]> = [
      ["POST", "/byog/databases", { database: "x" }],
      ["POST", "/byog/query", { database: "g2", collection: "c", query: "RETURN 1" }],
      ["GET", "/byog/collections?database=g2", undefined],
      ["DELETE", "/byog/collections", { database: "g2", collection: "people" }],
      ["DELETE", "/byog/databases", { database: "g2" }],
    ];
    for (const [method, path, body] of routes) {
      for (const key of [null, "csk_not_a_key"]) {
        const message = assertDetailError(await t.request(method, path, { body, key }), 403, "FORBIDDEN");
        assert.ok(message.length > 0);
      }
    }
    assert.deepEqual(await graphClient(t, "g2").collections(), ["people", "places"], "nothing was deleted");
  });

  test("DELETE /byog/collections drops one collection; a missing one succeeds", async () => {
    const g = graphClient(t, "g2");
    const res = await t.request("DELETE", "/byog/collections", { body: { database: "g2", collection: "places" } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true, database: "g2", collection: "places", dropped: true });
    assert.deepEqual(await g.collections(), ["people"]);
    assert.deepEqual(await g.rows("places", "MATCH (n) RETURN n"), []);
    const again = await t.request("DELETE", "/byog/collections", { body: { database: "g2", collection: "places" } });
    assert.equal(again.status, 200);
    assert.equal(again.body.dropped, false);
    assert.deepEqual(await g.rows("places", "CREATE (n:Fresh) RETURN labels(n) AS l"), [{ l: ["Fresh"] }]);
    assert.deepEqual(await g.rows("places", "MATCH (n) RETURN count(n) AS n"), [{ n: 1 }]);
  });

  test("DELETE /byog/databases deletes a graph database (deleted: true) with its collections", async () => {
    const res = await t.request("DELETE", "/byog/databases", { body: { database: "g2" } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true, database: "g2", deleted: true, deleted_collections: ["people", "places"] });
    assertDetailError(await graphClient(t, "g2").query("people", "MATCH (n) RETURN n"), 404, "DATABASE_NOT_FOUND");
    await createGraphDatabase(t, "g2");
    assert.deepEqual(await graphClient(t, "g2").rows("people", "MATCH (n) RETURN n"), [], "a new database with the name starts empty");
  });

  test("a context database can hold graph collections; deleting through /byog only drops them (deleted: false)", async () => {
    const g = graphClient(t, "ctx1");
    await g.rows("kg", "CREATE (:Topic {name: 'graphs'})");
    assert.deepEqual(await g.collections(), ["kg"]);
    const cols = await t.request("GET", "/databases/collections", { query: { database: "ctx1" } });
    assert.deepEqual(field(cols.body, "data.collections"), ["ctx1"], "context listings keep to context collections");
    const res = await t.request("DELETE", "/byog/databases", { body: { database: "ctx1" } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true, database: "ctx1", deleted: false, deleted_collections: ["kg"] });
    const status = await t.request("GET", "/databases/status", { query: { database: "ctx1" } });
    assert.equal(field(status.body, "data.status"), "ready", "the database itself stays");
    assert.deepEqual(await g.collections(), []);
    assert.deepEqual(await g.rows("kg", "MATCH (n) RETURN n"), []);
  });
});
