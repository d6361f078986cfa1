import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ingestApp, ingestMemories, listContext, sourceIds } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

// POST /context/list's `search` (an extension of the interface): every word must occur in the
// item's title or its indexed text. The same answers on SQLite and PostgreSQL.
describe("POST /context/list search", () => {
  let t: TestApp;
  const search = (text: string | null, extra: Record<string, unknown> = {}) => listContext(t, { database: "kb", search: text, ...extra });

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "kb");
    await ingestApp(t, "kb", [
      { id: "ops", type: "note", title: "Ops notes", content: { text: "To roll back, redeploy the previous container tag." } },
      { id: "build", type: "note", title: "Build notes", content: { text: "The build runs on Node 20." } },
      { id: "odd", type: "ticket", title: "100% done_list", content: { text: "Characters LIKE treats as wildcards." } },
      { id: "umlaut", type: "note", title: "Ärger report", content: { text: "Nothing else here." } },
    ]);
    // A file's title (from document_metadata) is not in its text: found by the title alone.
    const res = await ingestMultipart(
      t,
      { type: "knowledge", database: "kb", document_metadata: JSON.stringify([{ id: "plan", title: "Quarterly checklist" }]) },
      [{ name: "plan.md", content: "# Goals\n\nNumbers and goals for the quarter.\n", type: "text/markdown" }],
    );
    assert.equal(res.status, 202, res.text);
    await waitTerminal(t, "kb", ["plan"]);
    await ingestMemories(t, "kb", [
      { id: "pref", text: "I prefer dark mode in every editor", infer: false },
      { id: "home", text: "I live in Lisbon", infer: false },
    ]);
  });
  after(async () => t.close());

  test("a word matches the title or the indexed text, as a substring, ASCII letters case-insensitive", async () => {
    assert.deepEqual(sourceIds(await search("checklist")), ["plan"], "the title alone");
    assert.deepEqual(sourceIds(await search("REDEPLOY")), ["ops"], "the text alone, any case");
    assert.deepEqual(sourceIds(await search("deploy")), ["ops"], "a substring of a word");
    assert.deepEqual(sourceIds(await search("notes")), ["build", "ops"]);
    assert.deepEqual(sourceIds(await search("quarter")), ["plan"], "the file's parsed text");
    assert.deepEqual(sourceIds(await search("nowhere")), []);
  });

  test("every word must occur (AND), in the title or the text; words may come from either", async () => {
    assert.deepEqual(sourceIds(await search("roll container")), ["ops"]);
    assert.deepEqual(sourceIds(await search("ops container")), ["ops"], "one word in the title, one in the text");
    assert.deepEqual(sourceIds(await search("roll node")), []);
    assert.deepEqual(sourceIds(await search("  notes   notes ")), ["build", "ops"], "extra spaces and repeats change nothing");
  });

  test("% and _ are plain characters; letters beyond ASCII match as written on both backends", async () => {
    assert.deepEqual(sourceIds(await search("100%")), ["odd"]);
    assert.deepEqual(sourceIds(await search("e_l")), ["odd"]);
    assert.deepEqual(sourceIds(await search("%")), ["odd"]);
    assert.deepEqual(sourceIds(await search("Ärger")), ["umlaut"]);
    // SQLite folds ASCII letters only; PostgreSQL is held to the same, so both answer alike.
    assert.deepEqual(sourceIds(await search("ärger")), []);
    assert.deepEqual(sourceIds(await search("äRGER")), []);
  });

  test("combines with the other filters and with memories; the total and pages count matches only", async () => {
    assert.deepEqual(sourceIds(await search("notes", { filters: { source_fields: { title: "Build notes" } } })), ["build"]);
    assert.deepEqual(sourceIds(await search("notes", { ids: ["ops", "plan"] })), ["ops"]);
    const memories = await search("DARK", { type: "memory" });
    assert.equal(memories.status, 200, memories.text);
    assert.deepEqual(
      field<Array<{ memory_id: string }>>(memories.body, "data.user_memories").map((m) => m.memory_id),
      ["pref"],
    );
    // "in": container (ops), Nothing (umlaut), and both memories; page 2 of 2 holds the last one.
    const first = await search("in", { type: "all", page_size: 3 });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(field(first.body, "data.pagination"), { page: 1, page_size: 3, total: 4, total_pages: 2, has_next: true, has_previous: false });
    const second = await search("in", { type: "all", page_size: 3, page: 2 });
    const ids = (res: typeof first) => [
      ...field<Array<{ id: string }>>(res.body, "data.sources").map((s) => s.id),
      ...field<Array<{ memory_id: string }>>(res.body, "data.user_memories").map((m) => m.memory_id),
    ];
    assert.deepEqual([...ids(first), ...ids(second)].sort(), ["home", "ops", "pref", "umlaut"]);
  });

  test("no words is no filter; more than 20 words, or more than 500 characters, is 400 INVALID_INPUT", async () => {
    const every = sourceIds(await listContext(t, { database: "kb" }));
    assert.deepEqual(sourceIds(await search("")), every);
    assert.deepEqual(sourceIds(await search("   ")), every);
    assert.deepEqual(sourceIds(await search(null)), every);
    for (const bad of [Array.from({ length: 21 }, (_, i) => `w${i}`).join(" "), "x".repeat(501)]) {
      const res = await search(bad);
      assert.equal(res.status, 400, res.text);
      assert.equal(field(res.body, "error.code"), "INVALID_INPUT");
      assert.match(field<string>(res.body, "error.message"), /search/);
    }
    const wrongType = await listContext(t, { database: "kb", search: ["notes"] });
    assert.equal(wrongType.status, 400, wrongType.text);
  });
});
