import { closeSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { InvertedIndex, type IndexSnapshot } from "./inverted-index.js";

/**
 * An inverted index on disk, so a restart reads one file instead of every posting row of the
 * store. Layout (little-endian; every array starts on a multiple of 4 bytes):
 *
 *   "CSBM25v2", then uint32 documents n, terms t, postings p, name bytes m
 *   int32[n] chunk keys, int32[n] lengths, int32[n] terms per document
 *   uint32[3t] per term: postings count, highest tf, shortest document
 *   int32[p] document numbers (the postings, term after term)
 *   int32[p] term numbers (each document's terms, document after document)
 *   uint16[p] term frequencies (padded to 4 bytes)
 *   m bytes: the term names, a JSON array of strings
 */
const MAGIC = "CSBM25v2";
const HEADER = MAGIC.length + 16;

/** Writes the index's live documents to `file` (through a temporary file, renamed into place). */
export function writeIndexFile(file: string, index: InvertedIndex): void {
  const s = index.snapshot();
  const names = Buffer.from(JSON.stringify(s.terms.map((t) => t.name)), "utf8");
  const header = Buffer.alloc(HEADER);
  header.write(MAGIC, 0, "latin1");
  header.writeUInt32LE(s.keys.length, 8);
  header.writeUInt32LE(s.terms.length, 12);
  header.writeUInt32LE(s.ids.length, 16);
  header.writeUInt32LE(names.length, 20);
  const table = new Uint32Array(3 * s.terms.length);
  s.terms.forEach((t, i) => table.set([t.count, t.maxTf, t.minLength], 3 * i));
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w");
  try {
    const sections = [header, s.keys, s.lengths, s.termCounts, table, s.ids, s.docTerms, s.tfs, new Uint8Array(padding(s.tfs.byteLength)), names];
    for (const section of sections) writeAll(fd, Buffer.from(section.buffer, section.byteOffset, section.byteLength));
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}

/**
 * The index saved in `file`; throws when the file is not one, is cut short or is inconsistent
 * (counts that do not add up, document numbers out of order or out of range, names repeated).
 */
export async function readIndexFile(file: string): Promise<InvertedIndex> {
  const data = await readWhole(file);
  const fail = (why: string): never => {
    throw new Error(`${file} is not a usable search index file: ${why}`);
  };
  if (data.length < HEADER || data.toString("latin1", 0, MAGIC.length) !== MAGIC) fail("no header");
  const n = data.readUInt32LE(8);
  const t = data.readUInt32LE(12);
  const p = data.readUInt32LE(16);
  const m = data.readUInt32LE(20);
  const tfsBytes = 2 * p + padding(2 * p);
  const namesAt = HEADER + 12 * n + 12 * t + 8 * p + tfsBytes;
  if (data.length !== namesAt + m) fail("its length disagrees with its header");
  const buffer = data.buffer instanceof ArrayBuffer ? data.buffer : fail("read into shared memory");
  let at = data.byteOffset + HEADER;
  const view = <A>(make: new (buffer: ArrayBuffer, offset: number, length: number) => A, length: number, width: number): A => {
    const out = new make(buffer, at, length);
    at += length * width;
    return out;
  };
  const keys = view(Int32Array, n, 4);
  const lengths = view(Int32Array, n, 4);
  const termCounts = view(Int32Array, n, 4);
  const table = view(Uint32Array, 3 * t, 4);
  const ids = view(Int32Array, p, 4);
  const docTerms = view(Int32Array, p, 4);
  const tfs = view(Uint16Array, p, 2);
  let names: unknown;
  try {
    names = JSON.parse(data.toString("utf8", namesAt));
  } catch {
    // The parser's own message adds nothing: the names section is damaged either way.
    fail("its term names do not parse");
  }
  if (!Array.isArray(names) || names.length !== t || !names.every((x) => typeof x === "string") || new Set(names).size !== t) fail("bad term names");
  const terms: Array<IndexSnapshot["terms"][number]> = [];
  let start = 0;
  for (let i = 0; i < t; i++) {
    const count = table[3 * i]!;
    if (count === 0 || start + count > p) fail("postings counts do not add up");
    for (let j = start; j < start + count; j++) {
      const id = ids[j]!;
      if (id < 0 || id >= n || (j > start && id <= ids[j - 1]!)) fail("document numbers out of order or range");
    }
    terms.push({ name: (names as string[])[i]!, count, maxTf: table[3 * i + 1]!, minLength: table[3 * i + 2]! });
    start += count;
  }
  if (start !== p) fail("postings counts do not add up");
  let listed = 0;
  for (const count of termCounts) {
    if (count < 0) fail("a negative term count");
    listed += count;
  }
  if (listed !== p) fail("the documents' term counts do not add up");
  for (const term of docTerms) if (term < 0 || term >= t) fail("a document's term number out of range");
  return InvertedIndex.restore({ keys, lengths, terms, ids, tfs, termCounts, docTerms });
}

/** Removes the file if there is one. */
export function removeIndexFile(file: string): void {
  rmSync(file, { force: true });
}

/** The file's bytes in a buffer of their own (aligned), read a piece at a time: one read returns at most 2 GiB. */
async function readWhole(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const data = Buffer.alloc((await handle.stat()).size);
    for (let at = 0; at < data.length;) {
      const { bytesRead } = await handle.read(data, at, Math.min(data.length - at, 1 << 30), at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return data;
  } finally {
    await handle.close();
  }
}

const padding = (bytes: number): number => (4 - (bytes % 4)) % 4;

function writeAll(fd: number, buffer: Buffer): void {
  for (let written = 0; written < buffer.length;) written += writeSync(fd, buffer, written);
}
