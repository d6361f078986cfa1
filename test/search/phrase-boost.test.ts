import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";

describe("hybrid query: the phrase boost", () => {
  let t: TestApp;
  const first = async (query: string): Promise<string | undefined> => {
    const res = await t.request("POST", "/query", { body: { database: "phrases", query } });
    assert.equal(res.status, 200);
    return field<Array<{ id: string }>>(res.body, "data.chunks")[0]?.id;
  };

  before(async () => {
    t = await startTestApp();
    await createReadyDatabase(t, "phrases");
    // Same words, same length, so BM25 ties: only the phrase tells them apart.
    const items = [
      { id: "mac-first", type: "policy", title: "Policy", content: { text: "Engineers may pick a MacBook or a ThinkPad for travel." } },
      { id: "thinkpad-first", type: "policy", title: "Policy", content: { text: "Engineers may pick a ThinkPad or a MacBook for travel." } },
      { id: "other", type: "policy", title: "Policy", content: { text: "Interns get a desk, a chair and a monitor." } },
    ];
    assert.equal((await ingestMultipart(t, { type: "knowledge", database: "phrases", app_knowledge: JSON.stringify(items) })).status, 202);
    await waitTerminal(
      t,
      "phrases",
      items.map((i) => i.id),
    );
  });

  after(async () => t.close());

  test("the chunk holding the query verbatim ranks first, whichever way round the words are", async () => {
    assert.equal(await first("a MacBook or a ThinkPad"), "mac-first");
    assert.equal(await first("a ThinkPad or a MacBook"), "thinkpad-first");
    assert.equal(await first("pick a ThinkPad or a MacBook"), "thinkpad-first");
    assert.equal(await first("pick a MacBook or a ThinkPad"), "mac-first");
  });
});
