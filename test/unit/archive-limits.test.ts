import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkArchive, checkArchiveDirectory, parseFile } from "../../src/engines/documents/parse/index.js";
import { makeDocx, randomBytes } from "../helpers/make-files.js";
import { makeDocxBomb } from "../helpers/make-zip.js";

const limits = { maxUncompressedBytes: 64 * 1024 * 1024, maxCompressionRatio: 100 };
const codeOf = (r: { ok: boolean; code?: string }): string => (r.ok ? "ok" : (r.code ?? "?"));

describe("archive limits (zip bombs in DOCX)", () => {
  test("a real DOCX passes both checks and still parses", async () => {
    const docx = await makeDocx();
    assert.equal(codeOf(checkArchive(docx, limits)), "ok");
    assert.equal(codeOf(await parseFile(docx, "report.docx", undefined, { archive: limits })), "ok");
  });

  test("an entry past the compression ratio is FILE_TOO_LARGE from the directory alone", () => {
    const bomb = makeDocxBomb(8 * 1024 * 1024);
    assert.ok(bomb.byteLength < 100 * 1024, `bomb is ${bomb.byteLength} bytes`);
    const check = checkArchiveDirectory(bomb, limits);
    assert.equal(codeOf(check), "FILE_TOO_LARGE");
    assert.match(check.ok ? "" : check.message, /word\/document\.xml' compresses \d+:1, above 100:1/);
  });

  test("a total inflated size past the limit is FILE_TOO_LARGE", () => {
    const check = checkArchive(makeDocxBomb(2 * 1024 * 1024), { maxUncompressedBytes: 1024 * 1024, maxCompressionRatio: 100_000 });
    assert.equal(codeOf(check), "FILE_TOO_LARGE");
    assert.match(check.ok ? "" : check.message, /inflates to more than 1048576 bytes/);
  });

  test("a directory that lies about sizes passes the directory check but not the inflation check", async () => {
    const liar = makeDocxBomb(8 * 1024 * 1024, 1000);
    assert.equal(codeOf(checkArchiveDirectory(liar, limits)), "ok");
    const check = checkArchive(liar, limits);
    assert.equal(codeOf(check), "FILE_TOO_LARGE");
    assert.match(check.ok ? "" : check.message, /inflates beyond its declared size/);
    const parsed = await parseFile(liar, "liar.docx", undefined, { archive: limits });
    assert.equal(codeOf(parsed), "FILE_TOO_LARGE");
  });

  test("parseFile refuses a bomb before opening it, with the default limits too", async () => {
    assert.equal(codeOf(await parseFile(makeDocxBomb(8 * 1024 * 1024), "bomb.docx")), "FILE_TOO_LARGE");
  });

  test("unreadable zips stay PROCESSING_FAILED", async () => {
    const zipHeader = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...randomBytes(200)]);
    assert.equal(codeOf(checkArchive(zipHeader, limits)), "PROCESSING_FAILED");
    assert.equal(codeOf(await parseFile(zipHeader, "fake.docx")), "PROCESSING_FAILED");
  });
});
