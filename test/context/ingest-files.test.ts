import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { makeDocx, makePdf, randomBytes } from "../helpers/make-files.js";

interface Result {
  id: string;
  status: string;
  error_code?: string;
}

describe("ingesting real files of every supported type", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ MAX_UPLOAD_BYTES: "200000" });
    await createReadyDatabase(t, "files");
  });
  after(async () => t.close());

  async function chunksOf(sourceId: string): Promise<Array<{ content: string; page: number | null; section_path: string }>> {
    const item = await t.app.store.db.selectFrom("context_items").select("id").where("source_id", "=", sourceId).executeTakeFirstOrThrow();
    return t.app.store.db.selectFrom("context_chunks").select(["content", "page", "section_path"]).where("item_id", "=", item.id).orderBy("position").execute();
  }

  test("PDF (per page), DOCX, CSV (with header), TXT and Markdown all complete", async () => {
    const pdf = await makePdf([["Quarterly results", "Revenue rose by nine percent."], ["Page two talks about hiring in Berlin."]]);
    const docx = await makeDocx();
    const csv = "name,city,role\nAda,London,engineer\nGrace,Arlington,admiral\n";
    const txt = "Plain text notes.\n\nThe office closes at six.";
    const res = await ingestMultipart(
      t,
      { type: "knowledge", database: "files", document_metadata: JSON.stringify([{ id: "pdf" }, { id: "docx" }, { id: "csv" }, { id: "txt" }, { id: "md" }]) },
      [
        { name: "report.pdf", content: pdf, type: "application/pdf" },
        { name: "report.docx", content: docx, type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
        { name: "people.csv", content: csv, type: "text/csv" },
        { name: "notes.txt", content: txt, type: "text/plain", part: "documents" },
        { name: "guide.md", content: "# Guide\n\n## Setup\n\nRun the installer.\n", type: "text/markdown" },
      ],
    );
    assert.equal(res.status, 202, res.text);
    assert.equal(field(res.body, "data.success_count"), 5);
    const rows = await waitTerminal(t, "files", ["pdf", "docx", "csv", "txt", "md"]);
    assert.deepEqual(
      rows.map((r) => r.indexing_status),
      ["completed", "completed", "completed", "completed", "completed"],
      JSON.stringify(rows),
    );

    const pdfChunks = await chunksOf("pdf");
    assert.ok(pdfChunks.some((c) => c.page === 1 && c.content.includes("nine percent")));
    assert.ok(pdfChunks.some((c) => c.page === 2 && c.content.includes("Berlin")));
    const docxChunks = await chunksOf("docx");
    assert.ok(docxChunks.some((c) => c.content.includes("Europe led the growth")));
    const csvChunks = await chunksOf("csv");
    assert.ok(csvChunks.some((c) => /name: Ada/.test(c.content) && /city: London/.test(c.content)));
    const txtChunks = await chunksOf("txt");
    assert.ok(txtChunks.some((c) => c.content.includes("office closes at six")));
    const mdChunks = await chunksOf("md");
    assert.ok(mdChunks.some((c) => (JSON.parse(c.section_path) as string[]).includes("Setup")));
  });

  test("unsupported types fail at once with INVALID_FILE_FORMAT; corrupt files end errored with a code", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(64)]);
    const pdf = await makePdf([["Truncated document"]]);
    const res = await ingestMultipart(
      t,
      { type: "knowledge", database: "files", document_metadata: JSON.stringify([{ id: "png" }, { id: "bad-pdf" }, { id: "bad-docx" }]) },
      [
        { name: "image.png", content: png, type: "image/png" },
        { name: "broken.pdf", content: pdf.slice(0, Math.floor(pdf.length / 3)), type: "application/pdf" },
        { name: "fake.docx", content: randomBytes(2000, 7) },
      ],
    );
    assert.equal(res.status, 202, res.text);
    const results = field<Result[]>(res.body, "data.results");
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.error_code ?? null]),
      [
        ["png", "failed", "INVALID_FILE_FORMAT"],
        ["bad-pdf", "queued", null],
        ["bad-docx", "failed", "INVALID_FILE_FORMAT"],
      ],
    );
    assert.equal(field(res.body, "data.failed_count"), 2);
    const [badPdf] = await waitTerminal(t, "files", ["bad-pdf"]);
    assert.equal(badPdf?.indexing_status, "errored");
    assert.equal(badPdf?.error_code, "PROCESSING_FAILED");
    assert.ok((badPdf?.message.length ?? 0) > 0);
  });

  test("a request of unsupported files only (an HTML page from the console) is refused: 400 INVALID_FILE_FORMAT naming the supported types", async () => {
    const before = await t.app.store.db.selectFrom("context_items").select("id").execute();
    const html = "<!DOCTYPE html><html><body><h1>Team page</h1><p>Hello.</p></body></html>";
    const one = await ingestMultipart(t, { database: "files", type: "knowledge" }, [{ name: "team.html", content: html, type: "text/html" }]);
    assert.equal(one.status, 400, one.text);
    assert.equal(field(one.body, "error.code"), "INVALID_FILE_FORMAT");
    assert.equal(field(one.body, "error.message"), "team.html: unsupported file type (supported: PDF, DOCX, Markdown (.md), CSV, TXT)");
    const two = await ingestMultipart(t, { database: "files", type: "knowledge" }, [
      { name: "team.html", content: html, type: "text/html" },
      { name: "logo.png", content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]), type: "image/png" },
    ]);
    assert.equal(two.status, 400, two.text);
    assert.match(String(field(two.body, "error.message")), /^team\.html: .*; logo\.png: binary content is not a supported format \(supported: /);
    const v1 = new FormData();
    v1.append("tenant_id", "files");
    v1.append("files", new Blob([html], { type: "text/html" }), "team.html");
    const legacy = await fetch(`${t.baseUrl}/ingestion/upload_knowledge`, { method: "POST", headers: { Authorization: `Bearer ${t.key}` }, body: v1 });
    assert.equal(legacy.status, 400);
    assert.equal(((await legacy.json()) as { detail: { error_code: string } }).detail.error_code, "INVALID_FILE_FORMAT");
    const after = await t.app.store.db.selectFrom("context_items").select("id").execute();
    assert.equal(after.length, before.length, "nothing was stored");
  });

  test("a file above MAX_UPLOAD_BYTES is 400 FILE_TOO_LARGE and stores nothing", async () => {
    const before = await t.app.store.db.selectFrom("context_items").select("id").execute();
    const res = await ingestMultipart(t, { type: "knowledge", database: "files" }, [{ name: "big.txt", content: "x".repeat(300_000), type: "text/plain" }]);
    assert.equal(res.status, 400);
    assert.equal(field(res.body, "error.code"), "FILE_TOO_LARGE");
    const afterRows = await t.app.store.db.selectFrom("context_items").select("id").execute();
    assert.equal(afterRows.length, before.length);
  });
});
