import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";

interface Notice {
  deprecated: boolean;
  message: string;
  deprecated_since: string;
  deprecated_field?: string;
  preferred_field?: string;
}

describe("deprecated aliases and legacy /tenants routes", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "main_db");
  });
  after(async () => t.close());

  test("tenant_id is accepted for database with a field-level notice and Deprecation: true", async () => {
    const res = await t.request("GET", "/databases/status", { query: { tenant_id: "main_db" } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("deprecation"), "true");
    const notices = field<Notice[]>(res.body, "meta.deprecation");
    assert.equal(notices.length, 1);
    assert.deepEqual(
      { ...notices[0], message: undefined },
      { deprecated: true, message: undefined, deprecated_since: "2.0", deprecated_field: "tenant_id", preferred_field: "database" },
    );
    assert.equal(field(res.body, "meta.database"), "main_db");
    assert.equal(field(res.body, "meta.tenant_id"), "main_db");
  });

  test("canonical name and alias with different values are 400 INVALID_INPUT; equal values are accepted", async () => {
    const conflict = await t.request("GET", "/databases/status", { query: { database: "main_db", tenant_id: "other" } });
    assert.equal(conflict.status, 400);
    assert.equal(field(conflict.body, "error.code"), "INVALID_INPUT");
    const bodyConflict = await t.request("POST", "/databases", { body: { database: "x1", tenant_id: "x2" } });
    assert.equal(bodyConflict.status, 400);
    assert.equal(field(bodyConflict.body, "error.code"), "INVALID_INPUT");
    const same = await t.request("GET", "/databases/status", { query: { database: "main_db", tenant_id: "main_db" } });
    assert.equal(same.status, 200);
    assert.equal(same.headers.get("deprecation"), "true");
    const schemaConflict = await t.request("POST", "/databases", {
      body: { database: "x3", database_metadata_schema: [], tenant_metadata_schema: [{ name: "a" }] },
    });
    assert.equal(schemaConflict.status, 400);
  });

  test("canonical requests carry no deprecation", async () => {
    const res = await t.request("GET", "/databases/status", { query: { database: "main_db" } });
    assert.equal(res.headers.get("deprecation"), null);
    assert.equal(field(res.body, "meta.deprecation"), undefined);
  });

  test("the six legacy /tenants routes work, with route-level deprecation", async () => {
    const create = await t.request("POST", "/tenants/create", { body: { tenant_id: "legacy_db" } });
    assert.equal(create.status, 202);
    assert.equal(field(create.body, "data.tenant_id"), "legacy_db");
    assert.equal(create.headers.get("deprecation"), "true");
    const notices = field<Notice[]>(create.body, "meta.deprecation");
    assert.ok(notices.some((n) => n.deprecated && /\/tenants/.test(n.message)));

    const dup = await t.request("POST", "/tenants/create", { body: { tenant_id: "legacy_db" } });
    assert.equal(dup.status, 409);
    assert.equal(field(dup.body, "error.code"), "TENANT_ALREADY_EXISTS");

    const status = await t.request("GET", "/tenants/infra/status", { query: { tenant_id: "main_db" } });
    assert.equal(status.status, 200);
    assert.equal(field(status.body, "data.infra.ready_for_ingestion"), true);
    assert.equal(field(status.body, "data.org_id"), t.orgId);

    const monitor = await t.request("GET", "/tenants/monitor", { query: { tenant_id: "main_db" } });
    assert.equal(monitor.status, 200);
    assert.equal(field(monitor.body, "data.tenant_id"), "main_db");

    const subs = await t.request("GET", "/tenants/sub_tenant_ids", { query: { tenant_id: "main_db" } });
    assert.deepEqual(field(subs.body, "data.sub_tenant_ids"), ["main_db"]);

    const ids = await t.request("GET", "/tenants/tenant_ids");
    assert.equal(ids.status, 200);
    assert.ok((ids.body.tenant_ids as string[]).includes("main_db"));
    assert.deepEqual(ids.body.failed_tenant_ids, []);
    assert.equal(typeof ids.body.message, "string");
    assert.deepEqual(field(ids.body, "data.tenant_ids"), ids.body.tenant_ids);

    const missing = await t.request("GET", "/tenants/infra/status", { query: { tenant_id: "nope" } });
    assert.equal(missing.status, 404);
    assert.equal(field(missing.body, "error.code"), "TENANT_NOT_FOUND");

    const del = await t.request("DELETE", "/tenants/delete", { query: { tenant_id: "legacy_db" } });
    assert.equal(del.status, 202);
    assert.equal((await t.request("GET", "/tenants/infra/status", { query: { tenant_id: "legacy_db" } })).status, 404);
  });
});
