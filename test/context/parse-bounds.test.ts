import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { inflatingPdf, manyPagesPdf } from "../helpers/hostile-pdfs.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { makePdf } from "../helpers/make-files.js";

const DB = "hostile";

describe("uploaded files are parsed in a bounded worker: past its memory or deadline the file fails, the service goes on", () => {
  let t: TestApp;

  before(async () => {
    // The deadline is far above what the two bombs need to hit the memory bound (1-2 s alone on
    // this machine), so a loaded CI machine cannot turn them into timeouts; the slow PDF needs about
    // 32 s alone. INDEXING_NICE=0: the parser thread must not starve beside other test files.
    t = await startTestApp({ PARSE_WORKER_MEMORY_MB: "64", PARSE_TIMEOUT_MS: "15000", INDEXING_NICE: "0" });
    await createReadyDatabase(t, DB);
  });
  after(async () => t.close());

  test("a text bomb, an inflating stream and a slow PDF end errored with PROCESSING_FAILED; a PDF after them is indexed", async () => {
    const files = [
      // 120 KB that inflate to 40 MB of text-showing operators: millions of text items on the heap.
      { id: "text-bomb", name: "text-bomb.pdf", content: await inflatingPdf(40, "BT /F1 12 Tf 72 712 Td (bomb) Tj ET") },
      // 600 KB that inflate to 300 MB of drawing operators: one buffer, outside the heap.
      { id: "stream-bomb", name: "stream-bomb.pdf", content: await inflatingPdf(300, "1 0 0 1 0 0 cm") },
      { id: "slow", name: "slow.pdf", content: await manyPagesPdf(10_000) },
      { id: "fine", name: "fine.pdf", content: await makePdf([["The parser worker was replaced and read this page."]]) },
    ];
    const res = await ingestMultipart(
      t,
      { type: "knowledge", database: DB, document_metadata: JSON.stringify(files.map((f) => ({ id: f.id }))) },
      files.map((f) => ({ name: f.name, content: f.content, type: "application/pdf" })),
    );
    assert.equal(res.status, 202, res.text);
    assert.equal(field(res.body, "data.success_count"), 4, res.text);

    const rows = new Map(
      (
        await waitTerminal(
          t,
          DB,
          files.map((f) => f.id),
          undefined,
          120_000,
        )
      ).map((r) => [r.id, r]),
    );
    for (const id of ["text-bomb", "stream-bomb"]) {
      assert.equal(rows.get(id)?.indexing_status, "errored", id);
      assert.equal(rows.get(id)?.error_code, "PROCESSING_FAILED", id);
      assert.match(String(rows.get(id)?.message), /needed more than 64 MB of memory \(PARSE_WORKER_MEMORY_MB\)/, id);
    }
    assert.equal(rows.get("slow")?.indexing_status, "errored");
    assert.equal(rows.get("slow")?.error_code, "PROCESSING_FAILED");
    assert.match(String(rows.get("slow")?.message), /parsing slow\.pdf did not finish within 15000 ms/);
    assert.equal(rows.get("fine")?.indexing_status, "completed", JSON.stringify(rows.get("fine")));

    const found = await t.request("POST", "/query", { body: { database: DB, query: "which parser worker was replaced" } });
    assert.equal(found.status, 200, found.text);
    assert.match(found.text, /The parser worker was replaced and read this page\./);
  });
});
