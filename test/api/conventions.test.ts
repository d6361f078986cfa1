import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("API conventions", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ BODY_LIMIT_BYTES: "4096" });
  });
  after(async () => t.close());

  test("success envelope: meta.request_id is a UUID equal to X-Request-ID; API-Version header", async () => {
    const res = await t.request("GET", "/databases");
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal(res.body.error, null);
    assert.ok(field(res.body, "data.databases"));
    const requestId = field<string>(res.body, "meta.request_id");
    assert.match(requestId, UUID);
    assert.equal(res.headers.get("x-request-id"), requestId);
    assert.equal(typeof field(res.body, "meta.latency_ms"), "number");
    assert.equal(field(res.body, "meta.api_version"), "2");
    assert.equal(res.headers.get("api-version"), "2");
    assert.equal(res.headers.get("deprecation"), null);
  });

  test("error envelope carries code, message and meta.request_id", async () => {
    const res = await t.request("GET", "/databases/status", { query: { database: "missing_db" } });
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys(res.body).sort(), ["data", "error", "meta", "success"]);
    assert.equal(res.body.success, false);
    assert.equal(res.body.data, null);
    assert.equal(field(res.body, "error.code"), "DATABASE_NOT_FOUND");
    assert.equal(typeof field(res.body, "error.message"), "string");
    assert.equal(field(res.body, "meta.request_id"), res.headers.get("x-request-id"));
  });

  test("every request gets its own request id", async () => {
    const a = await t.request("GET", "/databases");
    const b = await t.request("GET", "/databases");
    assert.notEqual(field(a.body, "meta.request_id"), field(b.body, "meta.request_id"));
  });

  test("unsupported API-Version is 400 INVALID_INPUT; a missing header is accepted as version 2", async () => {
    const bad = await t.request("GET", "/databases", { headers: { "API-Version": "7" } });
    assert.equal(bad.status, 400);
    assert.equal(field(bad.body, "error.code"), "INVALID_INPUT");
    const res = await fetch(`${t.baseUrl}/databases`, { headers: { Authorization: `Bearer ${t.key}` } });
    assert.equal(res.status, 200);
  });

  test("401 UNAUTHORIZED for missing, malformed, quoted, double-spaced and unknown keys", async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { Authorization: t.key },
      { Authorization: `Basic ${t.key}` },
      { Authorization: `Bearer "${t.key}"` },
      { Authorization: `Bearer  ${t.key}` },
      { Authorization: `bearer ${t.key}` },
      { Authorization: "Bearer not-a-real-key" },
    ];
    for (const headers of cases) {
      const res = await t.request("GET", "/databases", { key: null, headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(field(res.body, "error.code"), "UNAUTHORIZED");
    }
  });

  test("a revoked key is rejected", async () => {
    const other = await t.newOrgKey();
    const keys = await t.app.orgs.listKeys(other.orgId);
    assert.equal((await t.request("GET", "/databases", { key: other.key })).status, 200);
    assert.equal(await t.app.orgs.revokeKey(keys[0]!.id), true);
    const res = await t.request("GET", "/databases", { key: other.key });
    assert.equal(res.status, 401);
    assert.equal(field(res.body, "error.code"), "UNAUTHORIZED");
  });

  test("unknown routes are 404 NOT_FOUND in the envelope", async () => {
    const res = await t.request("GET", "/no/such/route");
    assert.equal(res.status, 404);
    assert.equal(field(res.body, "error.code"), "NOT_FOUND");
    const wrongMethod = await t.request("PUT", "/databases", { body: {} });
    assert.equal(wrongMethod.status, 404);
  });

  test("malformed JSON, wrong types and wrong content types are 400 INVALID_INPUT", async () => {
    const malformed = await t.request("POST", "/databases", { rawBody: '{"database": ', headers: { "Content-Type": "application/json" } });
    assert.equal(malformed.status, 400);
    assert.equal(field(malformed.body, "error.code"), "INVALID_INPUT");
    const wrongType = await t.request("POST", "/databases", { body: { database: 42 } });
    assert.equal(wrongType.status, 400);
    assert.equal(field(wrongType.body, "error.code"), "INVALID_INPUT");
    const notObject = await t.request("POST", "/databases", { body: [1, 2] });
    assert.equal(notObject.status, 400);
    const xml = await t.request("POST", "/databases", { rawBody: "<a/>", headers: { "Content-Type": "application/xml" } });
    assert.equal(xml.status, 400);
    assert.equal(field(xml.body, "error.code"), "INVALID_INPUT");
    const missing = await t.request("POST", "/databases", { body: {} });
    assert.equal(missing.status, 400);
    assert.equal(field(missing.body, "error.code"), "INVALID_INPUT");
  });

  test("an oversized body is 413 PAYLOAD_TOO_LARGE", async () => {
    const res = await t.request("POST", "/databases", { body: { database: "x", pad: "y".repeat(10_000) } });
    assert.equal(res.status, 413);
    assert.equal(field(res.body, "error.code"), "PAYLOAD_TOO_LARGE");
  });

  test("health, readiness, OpenAPI and the docs page need no key", async () => {
    assert.equal((await t.request("GET", "/healthz", { key: null })).status, 200);
    const ready = await t.request("GET", "/readyz", { key: null });
    assert.equal(ready.status, 200);
    assert.equal(ready.body.status, "ready");
    const openapi = await t.request("GET", "/openapi.json", { key: null });
    assert.equal(openapi.status, 200);
    const paths = openapi.body.paths as Record<string, unknown>;
    for (const p of ["/databases", "/databases/status", "/databases/collections", "/databases/stats", "/tenants/tenant_ids"]) {
      assert.ok(paths[p], `openapi lists ${p}`);
    }
    const docs = await fetch(`${t.baseUrl}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
  });
});
