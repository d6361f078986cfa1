import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseFile, ParserPool } from "../../src/engines/documents/parse/index.js";
import { ParserPoolClosed } from "../../src/engines/documents/parse/parser-pool.js";
import type { ParsedDocument, ParseResult } from "../../src/engines/documents/parse/index.js";
import { manyPagesPdf } from "../helpers/hostile-pdfs.js";
import { makeDocx, makePdf, randomBytes, utf8 } from "../helpers/make-files.js";

function expectDocument(result: ParseResult): ParsedDocument {
  if (!result.ok) assert.fail(`expected a document, got ${result.code}: ${result.message}`);
  for (const block of result.document.blocks) {
    assert.equal(result.document.text.slice(block.start, block.end), block.text, "block offsets point into the text");
  }
  return result.document;
}

describe("parseFile: PDF", () => {
  it("extracts text per page with page numbers and paragraphs", async () => {
    const bytes = await makePdf(
      [
        ["Introduction to widgets", "Widgets are small parts.", "", "They are used everywhere."],
        ["Second page about gears", "Gears turn other gears."],
        ["Third page conclusion"],
      ],
      "Widget Handbook",
    );
    const doc = expectDocument(await parseFile(bytes, "handbook.pdf", "application/pdf"));
    assert.equal(doc.format, "pdf");
    assert.equal(doc.title, "Widget Handbook");
    assert.equal(doc.pageCount, 3);
    assert.deepEqual(
      doc.blocks.map((b) => [b.page, b.text]),
      [
        [1, "Introduction to widgets\nWidgets are small parts."],
        [1, "They are used everywhere."],
        [2, "Second page about gears\nGears turn other gears."],
        [3, "Third page conclusion"],
      ],
    );
  });

  it("fails a truncated PDF with PROCESSING_FAILED", async () => {
    const bytes = await makePdf([["Some text"]]);
    const result = await parseFile(bytes.subarray(0, Math.floor(bytes.length / 3)), "broken.pdf");
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.code, "PROCESSING_FAILED");
      assert.match(result.message, /broken\.pdf/);
    }
  });

  it("detects a PDF by its magic bytes despite a wrong name", async () => {
    const bytes = await makePdf([["Hidden pdf"]]);
    const doc = expectDocument(await parseFile(bytes, "upload.bin"));
    assert.equal(doc.format, "pdf");
  });
});

describe("parseFile: DOCX", () => {
  it("keeps headings, section paths, lists and tables", async () => {
    const doc = expectDocument(await parseFile(await makeDocx(), "report.docx"));
    assert.equal(doc.format, "docx");
    assert.equal(doc.title, "Quarterly Report");
    const list = doc.blocks.find((b) => b.kind === "list");
    assert.ok(list);
    assert.deepEqual(list.sectionPath, ["Quarterly Report", "Regional Results"]);
    assert.match(list.text, /- Europe led the growth\.\n- Asia was flat\./);
    const table = doc.blocks.find((b) => b.kind === "table");
    assert.ok(table && table.kind === "table");
    assert.deepEqual(table.header, ["Region", "Revenue"]);
    assert.equal(table.text, "Region: Europe; Revenue: 120\nRegion: Asia; Revenue: 80");
    const outlook = doc.blocks.find((b) => b.text.startsWith("We expect"));
    assert.deepEqual(outlook?.sectionPath, ["Outlook"]);
    assert.ok(doc.blocks.some((b) => b.text === "Revenue grew strongly in the third quarter."));
  });

  it("fails random bytes named .docx with PROCESSING_FAILED", async () => {
    const result = await parseFile(randomBytes(4096), "notes.docx");
    assert.deepEqual(result.ok ? "ok" : result.code, "PROCESSING_FAILED");
  });

  it("fails a ZIP that is not a Word document with PROCESSING_FAILED", async () => {
    const zipHeader = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...randomBytes(200)]);
    const result = await parseFile(zipHeader, "fake.docx");
    assert.deepEqual(result.ok ? "ok" : result.code, "PROCESSING_FAILED");
  });
});

describe("parseFile: Markdown", () => {
  const markdown = [
    "---",
    "title: Team Guide",
    "---",
    "# Guide",
    "Welcome to the **team** guide with a [link](https://example.com) & more.",
    "",
    "## Setup",
    "1. Install node",
    "2. Run `npm ci`",
    "   - nested step",
    "",
    "### Database",
    "| name | port |",
    "|------|------|",
    "| postgres | 5432 |",
    "",
    "```sql",
    "SELECT 1;",
    "```",
    "",
    "## Usage",
    "> Quoted advice here.",
  ].join("\n");

  it("builds headings with section paths, lists, tables and code blocks", async () => {
    const doc = expectDocument(await parseFile(utf8(markdown), "guide.md"));
    assert.equal(doc.title, "Team Guide");
    assert.deepEqual(
      doc.blocks.map((b) => [b.kind, b.sectionPath.join(" > ")]),
      [
        ["heading", "Guide"],
        ["paragraph", "Guide"],
        ["heading", "Guide > Setup"],
        ["list", "Guide > Setup"],
        ["heading", "Guide > Setup > Database"],
        ["table", "Guide > Setup > Database"],
        ["code", "Guide > Setup > Database"],
        ["heading", "Guide > Usage"],
        ["paragraph", "Guide > Usage"],
      ],
    );
    assert.equal(doc.blocks[1]?.text, "Welcome to the team guide with a link & more.");
    assert.equal(doc.blocks[3]?.text, "1. Install node\n2. Run npm ci\n  - nested step");
    assert.equal(doc.blocks[5]?.text, "name: postgres; port: 5432");
    const code = doc.blocks[6];
    assert.ok(code?.kind === "code");
    assert.equal(code.language, "sql");
    assert.equal(code.text, "SELECT 1;");
  });
});

describe("parseFile: CSV and TXT", () => {
  it("renders CSV rows as header: value pairs and keeps the header", async () => {
    const csv = 'name,city,note\nAlice,Paris,"likes, commas"\nBob,,plain\n';
    const doc = expectDocument(await parseFile(utf8(csv), "people.csv"));
    assert.deepEqual(doc.metadata.header, ["name", "city", "note"]);
    assert.deepEqual(
      doc.blocks.map((b) => b.text),
      ["name: Alice; city: Paris; note: likes, commas", "name: Bob; note: plain"],
    );
    const first = doc.blocks[0];
    assert.ok(first?.kind === "record");
    assert.equal(first.rowNumber, 1);
  });

  it("detects semicolon-separated CSV", async () => {
    const doc = expectDocument(await parseFile(utf8("\uFEFFa;b\n1;2\n"), "euro.csv"));
    assert.equal(doc.blocks[0]?.text, "a: 1; b: 2");
  });

  it("splits TXT into paragraphs and accepts latin-1", async () => {
    const latin1 = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x0a, 0x0a, 0x4e, 0x65, 0x78, 0x74]);
    const doc = expectDocument(await parseFile(latin1, "notes.txt", "text/plain"));
    assert.deepEqual(
      doc.blocks.map((b) => b.text),
      ["Café", "Next"],
    );
    assert.equal(doc.title, "notes");
  });
});

describe("parseFile: failures", () => {
  it("rejects a PNG with INVALID_FILE_FORMAT", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(64)]);
    const result = await parseFile(png, "image.png", "image/png");
    assert.deepEqual(result.ok ? "ok" : result.code, "INVALID_FILE_FORMAT");
  });

  it("rejects binary bytes named .txt and unknown text extensions", async () => {
    const binary = await parseFile(randomBytes(512), "data.txt");
    assert.deepEqual(binary.ok ? "ok" : binary.code, "INVALID_FILE_FORMAT");
    const json = await parseFile(utf8('{"a":1}'), "data.json");
    assert.deepEqual(json.ok ? "ok" : json.code, "INVALID_FILE_FORMAT");
  });

  it("fails empty files and oversized files without throwing", async () => {
    const empty = await parseFile(utf8("  \n\n "), "empty.txt");
    assert.deepEqual(empty.ok ? "ok" : empty.code, "PROCESSING_FAILED");
    const big = await parseFile(utf8("x".repeat(100)), "big.txt", undefined, { maxBytes: 10 });
    assert.deepEqual(big.ok ? "ok" : big.code, "FILE_TOO_LARGE");
  });

  it("times out instead of hanging", async () => {
    const bytes = await makePdf(Array.from({ length: 30 }, (_, i) => [`Page ${i}`]));
    const started = Date.now();
    const result = await parseFile(bytes, "slow.pdf", undefined, { timeoutMs: 1 });
    assert.deepEqual(result.ok ? "ok" : result.code, "PROCESSING_FAILED");
    if (!result.ok) assert.match(result.message, /did not finish within 1 ms/);
    assert.ok(Date.now() - started < 5000);
  });
});

describe("parseFile: in a parser pool", () => {
  it("parses in a worker thread, and a pool closed mid-parse (shutdown) throws instead of failing the file", async () => {
    const pool = new ParserPool({ size: 1, memoryMb: 256, nice: 0 });
    try {
      const doc = expectDocument(await parseFile(await makePdf([["Pooled parse."]]), "pooled.pdf", undefined, { isolate: pool }));
      assert.match(doc.text, /Pooled parse\./);
      const slow = parseFile(await manyPagesPdf(2_000), "slow.pdf", undefined, { isolate: pool });
      await pool.close();
      await assert.rejects(slow, ParserPoolClosed);
      await assert.rejects(parseFile(utf8("after close"), "late.txt", undefined, { isolate: pool }), ParserPoolClosed);
    } finally {
      await pool.close();
    }
  });
});
