import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, eventually, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart } from "../helpers/ingest.js";

interface Status {
  id: string;
  indexing_status: string;
}

describe("legacy v1 endpoints", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "v1");
  });
  after(async () => t.close());

  const verify = async (ids: string[], sub?: string): Promise<Status[]> => {
    const res = await t.request("POST", "/ingestion/verify_processing", { body: { tenant_id: "v1", file_ids: ids, ...(sub ? { sub_tenant_id: sub } : {}) } });
    assert.equal(res.status, 200, res.text);
    return res.body.statuses as Status[];
  };
  const done = (ids: string[], sub?: string) =>
    eventually(async () => ((await verify(ids, sub)).every((s) => s.indexing_status === "completed") ? true : null), 30_000);

  test("upload_knowledge (multipart with file_metadata), verify_processing, full_recall, boolean_recall, delete_knowledge", async () => {
    const up = await ingestMultipart(t, { tenant_id: "v1", file_metadata: JSON.stringify([{ id: "guide" }]) }, [
      { name: "guide.md", content: "# Guide\n\nThe espresso machine is descaled every Friday.", type: "text/markdown" },
    ]);
    // the v2 route also takes the legacy names (tenant_id, file_metadata); now the v1 route itself
    assert.equal(up.status, 202);
    const form = new FormData();
    form.append("tenant_id", "v1");
    form.append("file_metadata", JSON.stringify([{ id: "v1-guide" }]));
    form.append("files", new Blob([new TextEncoder().encode("Coffee beans are ordered from Lisbon every month.")], { type: "text/plain" }), "coffee.txt");
    const res = await fetch(`${t.baseUrl}/ingestion/upload_knowledge`, { method: "POST", headers: { Authorization: `Bearer ${t.key}` }, body: form });
    assert.equal(res.status, 202);
    const body = (await res.json()) as { results: Array<{ id: string; status: string }>; success: boolean; data?: unknown };
    assert.equal(body.data, undefined, "v1 answers plain objects, not the v2 envelope");
    assert.deepEqual(body.results, [{ id: "v1-guide", status: "queued", file_name: "coffee.txt" }]);
    await done(["guide", "v1-guide"]);

    const recall = await t.request("POST", "/recall/full_recall", { body: { tenant_id: "v1", query: "where are coffee beans ordered from", max_chunks: 3 } });
    assert.equal(recall.status, 200, recall.text);
    const chunks = recall.body.chunks as Array<{ id: string }>;
    assert.equal(chunks[0]?.id, "v1-guide");
    const bool = await t.request("POST", "/recall/boolean_recall", { body: { tenant_id: "v1", query: "espresso descaled", operator: "and" } });
    assert.deepEqual(
      (bool.body.chunks as Array<{ id: string }>).map((c) => c.id),
      ["guide"],
    );

    const del = await t.request("POST", "/knowledge/delete_knowledge", { body: { tenant_id: "v1", source_ids: ["guide", "missing"] } });
    assert.equal(del.status, 200);
    assert.equal(del.body.deleted_count, 1);
    const after = await verify(["guide"]);
    assert.equal(after[0]?.indexing_status, "errored");
  });

  test("add_memory, recall_preferences, delete_memory; errors use the {detail} shape", async () => {
    const add = await t.request("POST", "/memories/add_memory", {
      body: { tenant_id: "v1", sub_tenant_id: "sam", memories: [{ id: "tea", text: "I drink green tea every morning" }] },
    });
    assert.equal(add.status, 202, add.text);
    await done(["tea"], "sam");
    const prefs = await t.request("POST", "/recall/recall_preferences", {
      body: { tenant_id: "v1", sub_tenant_id: "sam", query: "what does the user drink in the morning" },
    });
    assert.equal((prefs.body.chunks as Array<{ id: string }>)[0]?.id, "tea");
    const del = await t.request("DELETE", "/memories/delete_memory", { query: { tenant_id: "v1", sub_tenant_id: "sam", memory_id: "tea" } });
    assert.equal(del.status, 200);
    assert.equal(del.body.user_memory_deleted, true);

    const missing = await t.request("POST", "/recall/full_recall", { body: { tenant_id: "nope", query: "x" } });
    assert.equal(missing.status, 404);
    assert.deepEqual(Object.keys(missing.body), ["detail"]);
    const detail = missing.body.detail as { success: boolean; error_code: string; message: string };
    assert.equal(detail.success, false);
    assert.equal(detail.error_code, "DATABASE_NOT_FOUND");
    const noKey = await t.request("POST", "/recall/full_recall", { key: null, body: { tenant_id: "v1", query: "x" } });
    assert.equal(noKey.status, 401);
    assert.equal((noKey.body.detail as { error_code: string }).error_code, "UNAUTHORIZED");
  });
});
