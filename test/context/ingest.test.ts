import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, statuses, waitTerminal } from "../helpers/ingest.js";

describe("POST /context/ingest and the indexing pipeline", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "kb", { database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true }] });
  });
  after(async () => t.close());

  test("a Markdown file is parsed, chunked, embedded and completed", async () => {
    const md = "# Handbook\n\n## Holidays\n\nEmployees get 30 days of paid leave.\n\n## Laptops\n\n- MacBook\n- ThinkPad\n";
    const res = await ingestMultipart(
      t,
      { type: "knowledge", database: "kb", document_metadata: JSON.stringify([{ id: "handbook" }]), metadata: JSON.stringify({ team: "people" }) },
      [{ name: "handbook.md", content: md, type: "text/markdown" }],
    );
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(field(res.body, "data.results"), [{ id: "handbook", status: "queued", file_name: "handbook.md" }]);
    assert.equal(field(res.body, "data.success_count"), 1);
    assert.equal(field(res.body, "data.failed_count"), 0);
    const [row] = await waitTerminal(t, "kb", ["handbook"]);
    assert.equal(row?.indexing_status, "completed", JSON.stringify(row));
    const chunks = await t.app.store.db.selectFrom("context_chunks").selectAll().where("collection", "=", "kb").execute();
    assert.ok(chunks.some((c) => c.content.includes("30 days of paid leave") && (JSON.parse(c.section_path) as string[]).includes("Holidays")));
    const vectors = await t.app.store.db.selectFrom("context_vectors").select("dims").execute();
    assert.ok(vectors.length >= chunks.length && vectors.every((v) => v.dims === 512));
  });

  test("app items (simple and rich) and a memory reach completed; malformed items fail one by one", async () => {
    const items = [
      { id: "doc-1", type: "note", content: { text: "The deploy key rotates every Monday." } },
      {
        kind: "email",
        provider: "gmail",
        external_id: "m1",
        fields: { from: "ada@example.com", to: ["bob@example.com"], subject: "Launch", body: "We launch on Friday." },
      },
      { id: "broken", type: "note" },
    ];
    const res = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "kb", app_knowledge: JSON.stringify(items) } });
    assert.equal(res.status, 202, res.text);
    const results = field<Array<{ id: string; status: string; error_code?: string }>>(res.body, "data.results");
    assert.equal(results.length, 3);
    assert.equal(results[2]?.status, "failed");
    assert.equal(results[2]?.error_code, "INVALID_INPUT");
    assert.equal(field(res.body, "data.failed_count"), 1);
    const ids = results.filter((r) => r.status === "queued").map((r) => r.id);
    const rows = await waitTerminal(t, "kb", ids);
    assert.deepEqual(
      rows.map((r) => r.indexing_status),
      ["completed", "completed"],
    );

    const mem = await ingestMultipart(t, {
      type: "memory",
      database: "kb",
      collection: "user-1",
      memories: JSON.stringify([{ id: "m-1", text: "I really love hiking on weekends", infer: true, user_name: "Sam" }]),
    });
    assert.equal(mem.status, 202, mem.text);
    assert.deepEqual(field(mem.body, "data.results"), [{ id: "m-1", status: "queued", infer: true }]);
    const [m] = await waitTerminal(t, "kb", ["m-1"], "user-1");
    assert.equal(m?.indexing_status, "completed");
    const stored = await t.app.store.db.selectFrom("context_items").select("inferred_content").where("source_id", "=", "m-1").executeTakeFirstOrThrow();
    assert.match(stored.inferred_content ?? "", /Sam likes hiking/i);
  });

  test("status: unknown ids and wrong collections are errored / FILE_NOT_FOUND / ID not found", async () => {
    const rows = await statuses(t, "kb", ["handbook", "nope"]);
    assert.equal(rows[0]?.indexing_status, "completed");
    assert.deepEqual(rows[1], { id: "nope", indexing_status: "errored", error_code: "FILE_NOT_FOUND", message: "ID not found" });
    const scopeMiss = await statuses(t, "kb", ["handbook"], "other-collection");
    assert.deepEqual(scopeMiss[0], { id: "handbook", indexing_status: "errored", error_code: "FILE_NOT_FOUND", message: "ID not found" });
  });
});
