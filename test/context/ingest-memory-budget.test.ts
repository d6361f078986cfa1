import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestFilesAndWait } from "../helpers/ingest.js";

const DB = "budget";

/** A one-page PDF of `line` carrying `padBytes` of incompressible attachment: large to store, little to index. */
async function paddedPdf(line: string, padBytes: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(line, { x: 50, y: 800, size: 12, font });
  await pdf.attach(randomBytes(padBytes), "padding.bin", { mimeType: "application/octet-stream" });
  return pdf.save();
}

// INGEST_MEMORY_MB bounds the bytes the indexing jobs hold at once. A file larger than the whole
// budget must still be indexed (it waits for the others and runs alone), and the items beside it
// must not wait forever behind it.
describe("the indexing jobs' memory budget (INGEST_MEMORY_MB)", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ INGEST_MEMORY_MB: "1" });
    await createReadyDatabase(t, DB);
  });
  after(async () => t.close());

  test("a file larger than the budget and small items sent with it are all indexed and found", async () => {
    const big = await paddedPdf("The lighthouse keeper logs the fog horn hours.", 1_500_000);
    assert.ok(big.byteLength > 1024 * 1024, `the padded PDF is ${big.byteLength} bytes, not above the 1 MB budget`);
    const files = [
      { id: "big", name: "big.pdf", content: big, type: "application/pdf" },
      ...Array.from({ length: 4 }, (_, i) => ({
        id: `small-${i}`,
        name: `small-${i}.txt`,
        content: `Small note ${i}: the ferry leaves at dawn on pier ${i}.`,
        type: "text/plain",
      })),
    ];
    const rows = await ingestFilesAndWait(t, DB, files);
    assert.equal(rows.size, files.length);
    for (const row of rows.values()) assert.equal(row.indexing_status, "completed", JSON.stringify(row));
    const found = await t.request("POST", "/query", { body: { database: DB, query: "lighthouse keeper fog horn" } });
    assert.equal(found.status, 200, found.text);
    assert.match(found.text, /The lighthouse keeper logs the fog horn hours\./);
  });
});
