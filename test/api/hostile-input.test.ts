import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type HttpResult, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

const DB = "hostile_db";
const deepArray = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);
const deepObject = (depth: number): string => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

function assertEnvelopeError(res: HttpResult, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(field(res.body, "error.code"), code, res.text);
}

function assertLegacyError(res: HttpResult, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(field(res.body, "detail.error_code"), code, res.text);
}

/** Regression tests for the 500s a hostile caller found (issue 12): each answer is a 4xx, nothing changes. */
describe("hostile input: nesting depth and number bounds", () => {
  let t: TestApp;
  let snapshot: string;
  const listAll = async (): Promise<string> => {
    const res = await t.request("POST", "/context/list", { body: { database: DB, include_fields: ["metadata", "additional_metadata"] } });
    assert.equal(res.status, 200, res.text);
    return JSON.stringify(field(res.body, "data.sources"));
  };

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, DB);
    const res = await ingestMultipart(t, {
      type: "knowledge",
      database: DB,
      app_knowledge: JSON.stringify([{ id: "doc-1", type: "note", content: { text: "a stored note" }, additional_metadata: { keep: "me" } }]),
    });
    assert.equal(res.status, 202, res.text);
    await waitTerminal(t, DB, ["doc-1"]);
    snapshot = await listAll();
  });
  after(async () => t.close());

  test("POST /context/list with page 1e308 is 400 INVALID_INPUT", async () => {
    const res = await t.request("POST", "/context/list", { rawBody: `{"database":"${DB}","page":1e308}`, headers: { "Content-Type": "application/json" } });
    assertEnvelopeError(res, 400, "INVALID_INPUT");
  });

  // Found by the randomized input suite (FUZZ_SEED=976762392): DELETE /context reads its fields from
  // the body and the query string together, so no schema typed them, and a boolean database was a 500.
  test("DELETE /context with a database or collection that is not a string is 400 INVALID_INPUT", async () => {
    for (const body of [
      { type: "memory", ids: "eZf", database: true },
      { type: "memory", ids: ["a"], database: DB, collection: 5 },
      { ids: ["a"], tenant_id: { name: DB } },
    ]) {
      const res = await t.request("DELETE", "/context", { body });
      assertEnvelopeError(res, 400, "INVALID_INPUT");
      assert.match(String(field(res.body, "error.message")), /must be a string/);
    }
  });

  test("GET /context/relations with a huge cursor is 400 INVALID_INPUT", async () => {
    const res = await t.request("GET", "/context/relations", { query: { database: DB, cursor: "1e308" } });
    assertEnvelopeError(res, 400, "INVALID_INPUT");
  });

  test("PATCH /context/{id}/metadata with 10,000-deep metadata is 400, as an object and as a JSON string", async () => {
    const asObject = await t.request("PATCH", "/context/doc-1/metadata", {
      rawBody: `{"database":"${DB}","additional_metadata":${deepObject(10_000)}}`,
      headers: { "Content-Type": "application/json" },
    });
    assertEnvelopeError(asObject, 400, "INVALID_INPUT");
    assert.match(String(field(asObject.body, "error.message")), /nested more than 64 levels/);
    const asString = await t.request("PATCH", "/context/doc-1/metadata", { body: { database: DB, metadata: deepObject(10_000) } });
    assertEnvelopeError(asString, 400, "INVALID_INPUT");
  });

  test("five v1 routes with 10,000-deep arrays answer 400 in the {detail} shape", async () => {
    const deep = deepArray(10_000);
    const calls: Array<[string, string, string]> = [
      ["POST", "/ingestion/upload_knowledge", `{"tenant_id":"${DB}","app_knowledge":${deep}}`],
      ["POST", "/memories/add_memory", `{"tenant_id":"${DB}","memories":${deep}}`],
      ["POST", "/ingestion/verify_processing", `{"tenant_id":"${DB}","file_ids":${deep}}`],
      ["DELETE", "/memories/delete_memory", `{"tenant_id":${deep}}`],
      ["POST", "/knowledge/delete_knowledge", `{"tenant_id":"${DB}","source_ids":${deep}}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { rawBody: body, headers: { "Content-Type": "application/json" } });
      assertLegacyError(res, 400, "INVALID_INPUT");
    }
  });

  // Found by the randomized input suite: `tenant_id: {}` on verify_processing was a 500.
  test("v1 routes refuse a tenant_id that is not a string with 400 in the {detail} shape", async () => {
    for (const tenant of [{}, [DB], 1, true]) {
      const calls: Array<[string, string, Record<string, unknown>]> = [
        ["POST", "/ingestion/verify_processing", { tenant_id: tenant, file_ids: ["doc-1"] }],
        ["POST", "/ingestion/upload_knowledge", { tenant_id: tenant, app_knowledge: [{ id: "x", type: "note", content: { text: "x" } }] }],
        ["POST", "/memories/add_memory", { tenant_id: tenant, memories: [{ text: "x" }] }],
        ["DELETE", "/memories/delete_memory", { tenant_id: tenant }],
        ["POST", "/knowledge/delete_knowledge", { tenant_id: tenant, source_ids: ["doc-1"] }],
      ];
      for (const [method, path, body] of calls) {
        const res = await t.request(method, path, { body, query: method === "DELETE" ? { memory_id: "m" } : {} });
        assertLegacyError(res, 400, "INVALID_INPUT");
      }
    }
  });

  test("the graph area refuses deep params in its own shape", async () => {
    const res = await t.request("POST", "/byog/query", {
      rawBody: `{"database":"g","collection":"c","query":"RETURN $p AS p","params":{"p":${deepArray(5_000)}}}`,
      headers: { "Content-Type": "application/json" },
    });
    assertLegacyError(res, 400, "INVALID_INPUT");
  });

  test("deep JSON-encoded multipart fields are 400, not a stack overflow", async () => {
    const appKnowledge = await ingestMultipart(t, { type: "knowledge", database: DB, app_knowledge: deepArray(10_000) });
    assertEnvelopeError(appKnowledge, 400, "INVALID_INPUT");
    const memories = await ingestMultipart(t, { type: "memory", database: DB, memories: `[{"text":"x","metadata":${JSON.stringify(deepObject(10_000))}}]` });
    assertEnvelopeError(memories, 400, "INVALID_INPUT");
  });

  test("a memory expiry_time beyond any date is 400", async () => {
    const res = await t.request("POST", "/context/ingest", {
      rawBody: `{"type":"memory","database":"${DB}","memories":[{"text":"x","expiry_time":1e308}]}`,
      headers: { "Content-Type": "application/json" },
    });
    assertEnvelopeError(res, 400, "INVALID_INPUT");
  });

  test("a 5,000-character path parameter is judged by the route (400 or 404 with a code), not an undocumented 414", async () => {
    const long = "x".repeat(5_000);
    const item = await t.request("PATCH", `/context/${long}/metadata`, { body: { database: DB, metadata: { a: 1 } } });
    assert.ok([400, 404].includes(item.status), item.text);
    assert.match(String(field(item.body, "error.code")), /^[A-Z_]+$/, item.text);
    const connector = await t.request("GET", `/connectors/${long}/resources`);
    assert.ok([400, 404].includes(connector.status), connector.text);
    const file = await t.request("GET", `/context/files/${long}`);
    assertEnvelopeError(file, 403, "FILE_URL_INVALID");
    assert.equal(await listAll(), snapshot);
  });

  test("nesting at the limit is still accepted", async () => {
    const res = await t.request("PATCH", "/context/doc-1/metadata", {
      rawBody: `{"database":"${DB}","additional_metadata":{"x":${deepArray(60)}}}`,
      headers: { "Content-Type": "application/json" },
    });
    assert.equal(res.status, 200, res.text);
    const undo = await t.request("PATCH", "/context/doc-1/metadata", { body: { database: DB, additional_metadata: { x: null } } });
    assert.equal(undo.status, 200, undo.text);
    snapshot = await listAll();
  });

  test("a NUL character in a name or id looked up is a 4xx on both backends (PostgreSQL cannot hold it)", async () => {
    const byog = await t.request("DELETE", "/byog/databases", { body: { database: "a\u0000b" } });
    assert.ok(byog.status >= 400 && byog.status < 500, byog.text);
    const inspect = await t.request("GET", "/context/inspect", { query: { database: DB, id: "x\u0000y" } });
    assert.ok(inspect.status >= 400 && inspect.status < 500, inspect.text);
    const list = await t.request("POST", "/context/list", { body: { database: DB, collection: "c\u0000d" } });
    assert.ok((list.status >= 400 && list.status < 500) || list.status === 200, list.text);
  });

  test("stored data is unchanged by the refused requests", async () => {
    assert.equal(await listAll(), snapshot);
    assert.match(snapshot, /"keep":"me"/);
  });
});
