import assert from "node:assert/strict";
import { after, afterEach, before, describe, test } from "node:test";
import { HydraDBClient } from "@hydradb/sdk";
import { startContractProxy } from "../helpers/contract-proxy.js";
import { ingestApp, ingestMemories } from "../helpers/context.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

type Row = Record<string, unknown>;

/** The vendor SDK's context reads and deletes, unchanged, against this service. */
describe("@hydradb/sdk client.context.list / inspect / delete", () => {
  let t: TestApp;
  let client: HydraDBClient;
  let proxy: Awaited<ReturnType<typeof startContractProxy>>;
  before(async () => {
    t = await startTestApp();
    // The SDK's requests go through a proxy that checks each response against /openapi.json.
    proxy = await startContractProxy(t);
    client = new HydraDBClient({ token: t.key, baseUrl: proxy.url });
    await createReadyDatabase(t, "sdk_ctx", { database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true }] });
    await ingestApp(t, "sdk_ctx", [
      { id: "s1", type: "note", title: "One", content: { text: "first note" }, metadata: { team: "eng" }, additional_metadata: { lang: "en" } },
      { id: "s2", type: "note", title: "Two", content: { text: "second note" }, metadata: { team: "ops" } },
    ]);
    await ingestMemories(t, "sdk_ctx", [{ id: "pref-1", text: "I drink green tea" }], "user-7");
    const up = await ingestMultipart(t, { type: "knowledge", database: "sdk_ctx", document_metadata: JSON.stringify([{ id: "readme" }]) }, [
      { name: "readme.txt", content: "Read me first.", type: "text/plain" },
    ]);
    assert.equal(up.status, 202, up.text);
    await waitTerminal(t, "sdk_ctx", ["readme"]);
  });
  after(async () => {
    await proxy.close();
    await t.close();
  });
  // Each test's SDK responses honour the contract.
  afterEach(() => assert.deepEqual(proxy.problems.splice(0), []));

  test("list with the SDK's legacy filter names, pagination and include_fields", async () => {
    const res = await client.context.list({
      tenantId: "sdk_ctx",
      filters: { tenantMetadata: { team: "eng" }, additionalMetadata: { lang: "en" } },
      pageSize: 10,
      includeFields: ["title", "tenant_metadata"],
    });
    assert.equal(res.success, true);
    const data = res.data as Row;
    const sources = data.sources as Row[];
    assert.deepEqual(
      sources.map((s) => s.id),
      ["s1"],
    );
    assert.equal(sources[0]?.title, "One");
    assert.deepEqual(sources[0]?.metadata, { team: "eng" });
    assert.equal(data.total, 1);
    const all = await client.context.list({ tenantId: "sdk_ctx", page: 1, pageSize: 2 });
    const page = all.data as Row;
    assert.equal((page.pagination as Row).total, 3);
    assert.equal((page.pagination as Row).has_next, true);
    await assert.rejects(client.context.list({ tenantId: "sdk_ctx", pageSize: 500 }), (err: Error & { statusCode?: number }) => err.statusCode === 400);
  });

  test("list memories: user_memories rows", async () => {
    const res = await client.context.list({ tenantId: "sdk_ctx", subTenantId: "user-7", type: "memory" });
    // The SDK types this payload as a union whose first member is `unknown`, so it arrives with wire names.
    const data = res.data as { user_memories?: Array<{ memory_id: string; memory_content: string }> };
    assert.deepEqual(
      data.user_memories?.map((m) => [m.memory_id, m.memory_content]),
      [["pref-1", "I drink green tea"]],
    );
  });

  test("inspect: content of an app item, presigned URL of a file", async () => {
    const app = await client.context.inspect({ id: "s1", tenantId: "sdk_ctx" });
    assert.equal(app.data?.id, "s1");
    assert.match(app.data?.content ?? "", /first note/);
    const file = await client.context.inspect({ id: "readme", tenantId: "sdk_ctx", mode: "url", expirySeconds: 120 });
    const url = file.data?.presignedUrl;
    assert.ok(url);
    assert.equal(file.data?.sizeBytes, 14);
    assert.equal(await (await fetch(url)).text(), "Read me first.");
    await assert.rejects(client.context.inspect({ id: "missing", tenantId: "sdk_ctx" }), (err: Error & { statusCode?: number }) => err.statusCode === 404);
  });

  test("delete knowledge and memories", async () => {
    const res = await client.context.delete({ tenantId: "sdk_ctx", ids: ["s2", "nope"] });
    const data = res.data as { results?: Array<{ id: string; deleted?: boolean }>; deletedCount?: number };
    assert.equal(data.deletedCount, 1);
    assert.deepEqual(
      data.results?.map((r) => [r.id, r.deleted]),
      [
        ["s2", true],
        ["nope", false],
      ],
    );
    const mem = await client.context.delete({ tenantId: "sdk_ctx", subTenantId: "user-7", ids: ["pref-1"], type: "memory" });
    assert.equal((mem.data as { deletedCount?: number }).deletedCount, 1);
    const after = await client.context.list({ tenantId: "sdk_ctx", subTenantId: "user-7", type: "memory" });
    assert.deepEqual((after.data as { user_memories?: unknown[] }).user_memories, []);
  });
});
