import assert from "node:assert/strict";
import { after, afterEach, before, describe, test } from "node:test";
import { HydraDBClient } from "@hydradb/sdk";
import { startContractProxy } from "../helpers/contract-proxy.js";
import { eventually, startTestApp, type TestApp } from "../helpers/harness.js";

/** The vendor's official SDK, pointed at this service, must work unchanged. */
describe("@hydradb/sdk 2.0.0 against this service", () => {
  let t: TestApp;
  let client: HydraDBClient;
  let proxy: Awaited<ReturnType<typeof startContractProxy>>;
  before(async () => {
    t = await startTestApp();
    // The SDK's requests go through a proxy that checks each response against /openapi.json.
    proxy = await startContractProxy(t);
    client = new HydraDBClient({ token: t.key, baseUrl: proxy.url });
  });
  after(async () => {
    await proxy.close();
    await t.close();
  });
  // Each test's SDK responses honour the contract.
  afterEach(() => assert.deepEqual(proxy.problems.splice(0), []));

  test("tenant management paths", async () => {
    const created = await client.tenants.create({ tenantId: "sdk_db" });
    assert.equal(created.success, true);
    assert.equal(created.data?.tenantId, "sdk_db");

    const status = await eventually(async () => {
      const s = await client.tenants.status({ tenantId: "sdk_db" });
      return s.data?.infra.readyForIngestion ? s : null;
    });
    assert.equal(status.data?.infra.vectorstoreStatus.knowledge, true);
    assert.equal(status.data?.orgId, t.orgId);

    const list = await client.tenants.list();
    assert.ok(list.data?.tenantIds?.includes("sdk_db"));

    const subs = await client.tenants.subTenants({ tenantId: "sdk_db" });
    assert.deepEqual(subs.data?.subTenantIds, ["sdk_db"]);

    const stats = await client.tenants.stats({ tenantId: "sdk_db" });
    assert.equal(stats.data?.tenantId, "sdk_db");
    assert.equal(stats.data?.knowledgeCollection.rowCount, 0);

    const deleted = await client.tenants.delete({ tenantId: "sdk_db" });
    assert.equal(deleted.data?.tenantId, "sdk_db");
    await assert.rejects(client.tenants.status({ tenantId: "sdk_db" }), (err: Error & { statusCode?: number }) => err.statusCode === 404);
  });

  test("SDK errors surface our status codes", async () => {
    const bad = new HydraDBClient({ token: "wrong-key", baseUrl: proxy.url, maxRetries: 0 });
    await assert.rejects(bad.tenants.list(), (err: Error & { statusCode?: number }) => err.statusCode === 401);
  });
});
