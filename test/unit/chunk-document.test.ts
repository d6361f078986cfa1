import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chunkDocument, chunkMemory, wordPieceEstimate } from "../../src/engines/documents/chunk/index.js";
import { wordPieceCount } from "../../src/engines/documents/chunk/token-spans.js";
import type { Chunk } from "../../src/engines/documents/chunk/index.js";
import { parseFile } from "../../src/engines/documents/parse/index.js";
import type { ParsedDocument } from "../../src/engines/documents/parse/index.js";
import { makeDocx, makePdf, utf8 } from "../helpers/make-files.js";

async function parsed(bytes: Uint8Array, name: string): Promise<ParsedDocument> {
  const result = await parseFile(bytes, name);
  if (!result.ok) assert.fail(result.message);
  return result.document;
}

function assertOffsets(doc: ParsedDocument, chunks: Chunk[]): void {
  chunks.forEach((c, i) => {
    assert.equal(c.position, i);
    assert.equal(doc.text.slice(c.charStart, c.charEnd), c.text);
  });
}

function sentences(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, i) => `${prefix} sentence number ${i} talks about topic ${i % 7}.`).join(" ");
}

describe("chunkDocument", () => {
  it("keeps Markdown sections apart and carries bare headings into the next section", async () => {
    const md = "# Guide\n## Install\nRun the installer.\n\n## Usage\nCall the API.\n";
    const doc = await parsed(utf8(md), "g.md");
    const chunks = chunkDocument(doc);
    assertOffsets(doc, chunks);
    assert.deepEqual(
      chunks.map((c) => [c.text, c.sectionPath]),
      [
        ["Guide\n\nInstall\n\nRun the installer.", ["Guide", "Install"]],
        ["Usage\n\nCall the API.", ["Guide", "Usage"]],
      ],
    );
  });

  it("puts each PDF page in its own chunks with the page number", async () => {
    const doc = await parsed(await makePdf([["Alpha page text"], ["Beta page text"]]), "p.pdf");
    const chunks = chunkDocument(doc);
    assertOffsets(doc, chunks);
    assert.deepEqual(
      chunks.map((c) => [c.page, c.text]),
      [
        [1, "Alpha page text"],
        [2, "Beta page text"],
      ],
    );
  });

  it("packs CSV rows into groups within the token budget, each row carrying its header", async () => {
    const rows = Array.from({ length: 40 }, (_, i) => `user${i},city${i},${i * 10}`).join("\n");
    const doc = await parsed(utf8(`name,city,score\n${rows}\n`), "scores.csv");
    const chunks = chunkDocument(doc, { maxTokens: 50, overlapTokens: 5 });
    assertOffsets(doc, chunks);
    assert.ok(chunks.length > 3);
    for (const c of chunks) {
      assert.ok(c.tokenCount <= 50);
      for (const line of c.text.split("\n\n")) assert.match(line, /^name: user\d+; city: city\d+; score: \d+$/);
    }
    assert.equal(chunks.map((c) => c.text).join("\n\n"), doc.text, "row groups cover every row once");
  });

  it("splits a long block into overlapping windows within the token limit", async () => {
    const text = sentences(60, "Plain");
    const doc = await parsed(utf8(text), "long.txt");
    const chunks = chunkDocument(doc, { maxTokens: 64, overlapTokens: 16 });
    assertOffsets(doc, chunks);
    assert.ok(chunks.length >= 8);
    for (const c of chunks) assert.ok(c.tokenCount <= 64 && c.tokenCount === wordPieceEstimate(c.text).length);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1];
      const next = chunks[i];
      assert.ok(prev && next && next.charStart < prev.charEnd, "consecutive windows overlap");
      assert.ok(next.charStart > prev.charStart, "windows advance");
    }
    assert.equal(chunks[0]?.charStart, 0);
    assert.equal(chunks[chunks.length - 1]?.charEnd, doc.text.length);
    // Windows end at sentence boundaries when one is available.
    for (const c of chunks) assert.match(c.text, /\.$/);
  });

  it("keeps DOCX section paths on chunks", async () => {
    const doc = await parsed(await makeDocx(), "r.docx");
    const chunks = chunkDocument(doc);
    assertOffsets(doc, chunks);
    assert.deepEqual(
      chunks.map((c) => c.sectionPath),
      [["Quarterly Report"], ["Quarterly Report", "Regional Results"], ["Outlook"]],
    );
    assert.match(chunks[1]?.text ?? "", /Region: Asia; Revenue: 80/);
  });

  it("rejects invalid options", () => {
    const doc = { format: "txt", title: "", text: "", blocks: [], metadata: {} } satisfies ParsedDocument;
    assert.throws(() => chunkDocument(doc, { maxTokens: 10, overlapTokens: 10 }), RangeError);
    assert.throws(() => chunkDocument(doc, { maxTokens: 0 }), RangeError);
  });
});

describe("wordPieceCount", () => {
  it("counts what wordPieceEstimate spans, whatever the script, punctuation or run length", () => {
    const texts = [
      "",
      "   \t\n ",
      "Plain words, and punctuation!?",
      "héllo wörld e\u0301\u0301 café",
      "emoji 😀😀 and 中文字符测试 and ١٢٣٤",
      "https://example.com/" + "a".repeat(40) + "?x=1&y=2",
      "snake_case_identifier_that_is_long " + "x".repeat(25),
      "lone \ud800 surrogate \udc00 here",
      "nbsp\u00a0em\u2003space\u3000ideographic",
      "...---***",
    ];
    for (const text of texts) assert.equal(wordPieceCount(text), wordPieceEstimate(text).length, JSON.stringify(text));
  });
});

describe("chunkMemory", () => {
  it("chunks user/assistant pairs one pair per unit", () => {
    const { document, chunks } = chunkMemory({
      userAssistantPairs: [
        { user: "I prefer tea.", assistant: "Noted, tea it is." },
        { user: "My dog is Rex.", assistant: "Rex is a great name." },
      ],
    });
    assertOffsets(document, chunks);
    assert.deepEqual(
      chunks.map((c) => c.text),
      ["User: I prefer tea.\nAssistant: Noted, tea it is.", "User: My dog is Rex.\nAssistant: Rex is a great name."],
    );
    assert.deepEqual(
      chunks.map((c) => c.unit),
      ["turn:0", "turn:1"],
    );
  });

  it("uses Markdown structure only when is_markdown is set", () => {
    const text = "# Preferences\n- likes jazz\n\n# Work\nWorks at Acme.";
    const md = chunkMemory({ text, isMarkdown: true });
    assert.deepEqual(
      md.chunks.map((c) => c.sectionPath),
      [["Preferences"], ["Work"]],
    );
    assert.equal(md.document.title, "Preferences");
    const plain = chunkMemory({ text });
    assert.deepEqual(
      plain.chunks.map((c) => c.sectionPath),
      [[]],
    );
    assert.match(plain.chunks[0]?.text ?? "", /^# Preferences/);
  });

  it("splits one very long pair with overlap but never merges pairs", () => {
    const { chunks } = chunkMemory(
      {
        userAssistantPairs: [
          { user: "Tell me a story.", assistant: sentences(40, "Story") },
          { user: "Thanks", assistant: "Welcome" },
        ],
      },
      { maxTokens: 60, overlapTokens: 10 },
    );
    assert.ok(chunks.length >= 4);
    assert.ok(chunks.slice(0, -1).every((c) => c.unit === "turn:0"));
    assert.equal(chunks[chunks.length - 1]?.text, "User: Thanks\nAssistant: Welcome");
  });
});
