import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { readIndexFile, writeIndexFile } from "../../src/engines/bm25/index-file.js";
import { InvertedIndex, searchBm25 } from "../../src/engines/bm25/inverted-index.js";
import { termFrequencies } from "../../src/engines/bm25/index.js";

const words = ["harbour", "crane", "tide", "gull", "boat", "glacier", "valley", "heron", "lake", "dawn", "net", "salt"];

/** An index of 300 chunks of seeded word salad, 100 of them removed again (dead postings kept). */
function salad(): InvertedIndex {
  let seed = 7;
  const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const index = new InvertedIndex();
  for (let key = 10; key < 310; key++) {
    const text = Array.from({ length: 3 + Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]!).join(" ");
    const terms = [...termFrequencies(text)];
    index.add(
      key,
      terms.reduce((n, [, tf]) => n + tf, 0),
      terms,
    );
  }
  for (let key = 10; key < 310; key += 3) index.remove(key);
  return index;
}

test("a BM25 index written to a file and read back ranks every query the same and keeps taking additions and removals", async () => {
  const dir = mkdtempSync(join(tmpdir(), "bm25-file-"));
  try {
    const original = salad();
    const file = join(dir, "index.bm25");
    writeIndexFile(file, original);
    const read = await readIndexFile(file);
    assert.equal(read.docCount, original.docCount);
    assert.equal(read.totalLength, original.totalLength);
    const queries = [["crane"], ["harbour", "tide"], ["glacier", "heron", "salt"], words, ["absent"]];
    for (const q of queries) {
      for (const operator of ["or", "and"] as const)
        assert.deepEqual(searchBm25([read], q, 20, operator), searchBm25([original], q, 20, operator), `${operator} ${q.join(" ")}`);
    }
    for (let key = 10; key < 310; key++) assert.deepEqual(read.termsOf(key)?.sort(), original.termsOf(key)?.sort(), `terms of ${key}`);
    // Both keep changing alike after the read.
    for (const index of [original, read]) {
      index.add(400, 3, [
        ["crane", 2],
        ["dawn", 1],
      ]);
      index.remove(11);
    }
    assert.deepEqual(searchBm25([read], ["crane", "dawn"], 20, "or"), searchBm25([original], ["crane", "dawn"], 20, "or"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a file that is not a whole, consistent index is refused", async () => {
  const dir = mkdtempSync(join(tmpdir(), "bm25-file-"));
  try {
    const file = join(dir, "index.bm25");
    writeFileSync(file, "not an index");
    await assert.rejects(readIndexFile(file), /no header/);
    writeIndexFile(file, salad());
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 1));
    await assert.rejects(readIndexFile(file), /length disagrees/);
    // A document number out of range: the first posting points past the last document.
    const damaged = Buffer.from(bytes);
    const n = damaged.readUInt32LE(8);
    const t = damaged.readUInt32LE(12);
    damaged.writeInt32LE(n, 24 + 12 * n + 12 * t);
    writeFileSync(file, damaged);
    await assert.rejects(readIndexFile(file), /out of order or range/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
