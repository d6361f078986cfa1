import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { inflatingPdf, manyPagesPdf } from "../helpers/hostile-pdfs.js";
import { ingestFilesAndWait, type StatusRow } from "../helpers/ingest.js";
import { makePdf } from "../helpers/make-files.js";

const DB = "hostile";

/** Uploads the PDFs in one request and waits until each is terminal; rows by id. */
const ingestAndWait = (t: TestApp, files: Array<{ id: string; name: string; content: Uint8Array }>): Promise<Map<string, StatusRow>> =>
  ingestFilesAndWait(
    t,
    DB,
    files.map((f) => ({ ...f, type: "application/pdf" })),
  );

function assertFailed(row: StatusRow | undefined, message: RegExp): void {
  assert.equal(row?.indexing_status, "errored", JSON.stringify(row));
  assert.equal(row?.error_code, "PROCESSING_FAILED", JSON.stringify(row));
  assert.match(String(row?.message), message);
}

// Each bound has an app of its own, whose other bound the file cannot reach, so a loaded machine
// cannot turn one outcome into the other. INDEXING_NICE=0: the parser thread must not starve beside
// other test files.
describe("uploaded files are parsed in a bounded worker: past its memory the file fails, the next file is parsed", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARSE_WORKER_MEMORY_MB: "64", PARSE_TIMEOUT_MS: "300000", INDEXING_NICE: "0" });
    await createReadyDatabase(t, DB);
  });
  after(async () => t.close());

  test("a text bomb and an inflating stream end errored with PROCESSING_FAILED; a PDF after them is indexed and found", async () => {
    const rows = await ingestAndWait(t, [
      // 120 KB that inflate to 40 MB of text-showing operators: millions of text items on the heap.
      { id: "text-bomb", name: "text-bomb.pdf", content: await inflatingPdf(40, "BT /F1 12 Tf 72 712 Td (bomb) Tj ET") },
      // 600 KB that inflate to 300 MB of drawing operators: one buffer, outside the heap.
      { id: "stream-bomb", name: "stream-bomb.pdf", content: await inflatingPdf(300, "1 0 0 1 0 0 cm") },
      { id: "fine", name: "fine.pdf", content: await makePdf([["The parser worker was replaced and read this page."]]) },
    ]);
    for (const id of ["text-bomb", "stream-bomb"]) assertFailed(rows.get(id), /needed more than 64 MB of memory \(PARSE_WORKER_MEMORY_MB\)/);
    assert.equal(rows.get("fine")?.indexing_status, "completed", JSON.stringify(rows.get("fine")));
    const found = await t.request("POST", "/query", { body: { database: DB, query: "which parser worker was replaced" } });
    assert.equal(found.status, 200, found.text);
    assert.match(found.text, /The parser worker was replaced and read this page\./);
  });
});

describe("uploaded files are parsed in a bounded worker: past its deadline the parse is stopped", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARSE_WORKER_MEMORY_MB: "1024", PARSE_TIMEOUT_MS: "3000", INDEXING_NICE: "0" });
    await createReadyDatabase(t, DB);
  });
  after(async () => t.close());

  test("a PDF of 10,000 empty pages (32 s to parse alone) ends errored with PROCESSING_FAILED at the deadline; a PDF after it is indexed", async () => {
    const rows = await ingestAndWait(t, [
      { id: "slow", name: "slow.pdf", content: await manyPagesPdf(10_000) },
      { id: "fine", name: "fine.pdf", content: await makePdf([["A page read after the slow one."]]) },
    ]);
    assertFailed(rows.get("slow"), /parsing slow\.pdf did not finish within 3000 ms/);
    assert.equal(rows.get("fine")?.indexing_status, "completed", JSON.stringify(rows.get("fine")));
  });
});
