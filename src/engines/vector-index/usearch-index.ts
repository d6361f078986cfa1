import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { createRequire } from "node:module";
import { cpus } from "node:os";
import type { Index } from "usearch";
import { checkVector, toKey, VectorIndexError } from "./vector-index.js";
import type { VectorIndex, VectorKey, VectorMatch } from "./vector-index.js";

export interface HnswOptions {
  dimensions: number;
  /** Graph degree M; default 16. Higher gives better recall, more memory, slower adds. */
  connectivity?: number;
  /**
   * ef at build time; default 64, pgvector's default too. Against 128 (usearch's default), on
   * 60,000 of our encoder's vectors: an add 158 us instead of 325 us, recall@10 0.996 instead of
   * 1.000 (48: 109 us, 0.986).
   */
  expansionAdd?: number;
  /** ef at query time; default 64. Raised automatically when k is larger. */
  expansionSearch?: number;
  /**
   * How the index holds its vectors; default `f16`. Against `f32` on our encoder's LoCoMo vectors
   * (5,293 held, 500 others as queries, one thread): recall@10 against exact search 0.9970 for
   * both, an add 118 against 160-173 us, a search for 40 120 against 200-232 us, half the memory
   * (bf16 0.9964, i8 0.9528). A file keeps the precision it was saved with.
   */
  precision?: "f16" | "f32";
}

// usearch's ESM entry looks for a local build directory and recurses forever when only the
// prebuilt binaries exist (2.25.x); its CommonJS entry finds the prebuilds, so load that one.
const require = createRequire(import.meta.url);
const usearch = require("usearch") as typeof import("usearch");

/** What usearch takes for "all threads" (its std::thread::hardware_concurrency). */
const ALL_THREADS = Math.max(1, cpus().length);

/** Filtered searches fetch this many times `k` candidates first, widening until enough pass. */
const FILTER_OVERSAMPLING = 4;

/**
 * HNSW index backed by usearch (native, prebuilt for linux-x64, darwin and linux-arm64). Vectors
 * are held as f16 by default with the cosine metric (the table keeps them as f32, so an index can
 * always be rebuilt); usearch keeps no per-key payload, so a filter is applied to an oversampled
 * candidate list rather than inside the graph walk. A file saved as f32 (every file before f16
 * became the default) loads as f32: usearch takes the precision from the file's header.
 */
export class UsearchIndex implements VectorIndex {
  readonly dimensions: number;
  private index: Index;
  /**
   * Threads the native index last reserved per-thread state for. usearch reserves only when an add
   * outgrows its capacity, for that add's thread count; a later add on more threads that fits the
   * capacity failed ("Reserve capacity ahead of insertions!"). So the adds that grow the capacity
   * (a doubling, rare) run on all threads, and the others on at most as many as were reserved.
   */
  private reservedThreads = 0;
  /**
   * The keys held, mirrored here because usearch cannot list them: a reconcile compares a range of
   * them with the table, and a loaded file's keys that the table lost are removed one by one
   * instead of rebuilding the whole index. Null after loading a file saved without its key list.
   */
  private keySet: Set<bigint> | null = new Set();

  constructor(private readonly options: HnswOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) throw new VectorIndexError("dimensions must be a positive integer");
    this.dimensions = options.dimensions;
    this.index = this.create();
  }

  private create(): Index {
    return new usearch.Index({
      dimensions: this.options.dimensions,
      metric: usearch.MetricKind.Cos,
      quantization: this.options.precision === "f32" ? usearch.ScalarKind.F32 : usearch.ScalarKind.F16,
      connectivity: this.options.connectivity ?? 16,
      expansion_add: this.options.expansionAdd ?? 64,
      expansion_search: this.options.expansionSearch ?? 64,
      multi: false,
    });
  }

  size(): number {
    return this.index.size();
  }

  has(key: VectorKey): boolean {
    return this.index.contains(toKey(key)) === true;
  }

  add(key: VectorKey, vector: Float32Array): void {
    checkVector(vector, this.dimensions);
    const k = toKey(key);
    if (this.index.contains(k) === true) this.index.remove(k);
    this.insert(BigUint64Array.of(k), vector, 1);
  }

  /** Whether the keys are known (false only after loading a file saved without its key list). */
  knowsKeys(): boolean {
    return this.keySet !== null;
  }

  /**
   * Takes `keys` as the index's keys when it does not know them (a file saved without its list)
   * and they are as many as it holds, each of them held: true when it took them.
   */
  adoptKeys(keys: readonly number[]): boolean {
    if (this.keySet !== null) return true;
    if (keys.length !== this.size() || !keys.every((k) => this.has(k))) return false;
    this.keySet = new Set(keys.map((k) => toKey(k)));
    return true;
  }

  /** The keys in (after, upTo], unordered; empty when the keys are not known. */
  keysBetween(after: number, upTo: number): number[] {
    const out: number[] = [];
    for (const k of this.keySet ?? []) {
      const n = Number(k);
      if (n > after && n <= upTo) out.push(n);
    }
    return out;
  }

  /** Every key held; empty when the keys are not known. */
  keys(): number[] {
    return [...(this.keySet ?? [])].map(Number);
  }

  /** Bulk insert with native threads; for rebuilds from the database. */
  addMany(keys: VectorKey[], vectors: Float32Array[], threads = 0): void {
    if (keys.length !== vectors.length) throw new VectorIndexError("keys and vectors differ in length");
    const flat = new Float32Array(vectors.length * this.dimensions);
    const bigKeys = new BigUint64Array(keys.length);
    vectors.forEach((v, i) => {
      checkVector(v, this.dimensions);
      const k = toKey(keys[i] ?? -1);
      if (this.index.contains(k) === true) this.index.remove(k);
      bigKeys[i] = k;
      flat.set(v, i * this.dimensions);
    });
    if (keys.length > 0) this.insert(bigKeys, flat, threads === 0 ? ALL_THREADS : threads);
  }

  private insert(keys: BigUint64Array, flat: Float32Array, threads: number): void {
    const reserves = this.index.size() + keys.length >= this.index.capacity();
    const used = reserves ? ALL_THREADS : Math.max(1, Math.min(threads, this.reservedThreads));
    try {
      this.index.add(keys, flat, used);
    } finally {
      // A failed bulk add may have stored some of its keys.
      for (const k of keys) {
        if (this.index.contains(k) === true) this.keySet?.add(k);
        else this.keySet?.delete(k);
      }
    }
    if (reserves) this.reservedThreads = used;
  }

  remove(key: VectorKey): boolean {
    const k = toKey(key);
    if (this.index.contains(k) !== true) return false;
    this.index.remove(k);
    this.keySet?.delete(k);
    return true;
  }

  search(vector: Float32Array, k: number, filter?: (key: bigint) => boolean): VectorMatch[] {
    checkVector(vector, this.dimensions);
    const size = this.index.size();
    if (k <= 0 || size === 0) return [];
    let fetch = Math.min(size, filter === undefined ? k : k * FILTER_OVERSAMPLING);
    for (;;) {
      const found = this.index.search(vector, fetch, 1);
      const out: VectorMatch[] = [];
      for (let i = 0; i < found.keys.length && out.length < k; i++) {
        const key = found.keys[i];
        const distance = found.distances[i];
        if (key === undefined || distance === undefined) continue;
        if (filter === undefined || filter(key)) out.push({ key, score: 1 - distance });
      }
      // Done when enough passed, or when the index has nothing more to offer.
      if (out.length >= k || fetch >= size || found.keys.length < fetch) return out;
      fetch = Math.min(size, fetch * 4);
    }
  }

  /**
   * usearch files carry no checksum and usearch crashes the process (SIGSEGV) on a corrupt one,
   * so a sidecar `<path>.meta.json` records size and CRC-32, checked before usearch reads the file.
   * The keys go to `<path>.keys` (64-bit, little-endian), their count and CRC-32 in the meta too.
   */
  save(path: string): void {
    const temp = `${path}.tmp-${process.pid}`;
    this.index.save(temp);
    const bytes = fileChecksum(temp);
    const keys = Buffer.from(BigUint64Array.from(this.keySet ?? []).buffer);
    const meta: IndexFileMeta = {
      format: "usearch-hnsw",
      dimensions: this.dimensions,
      size: this.index.size(),
      bytes: bytes.length,
      crc32: bytes.crc32,
      ...(this.keySet === null ? {} : { keys: this.keySet.size, keysCrc32: crc32(keys) }),
    };
    if (this.keySet !== null) writeFileSync(`${temp}.keys`, keys);
    writeFileSync(`${temp}.meta.json`, JSON.stringify(meta));
    renameSync(temp, path);
    if (this.keySet !== null) renameSync(`${temp}.keys`, keysPath(path));
    renameSync(`${temp}.meta.json`, metaPath(path));
  }

  load(path: string): void {
    const meta = verifyIndexFile(path, this.dimensions);
    const fresh = this.create();
    try {
      fresh.load(path);
    } catch (error) {
      throw new VectorIndexError(`could not load index ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (fresh.dimensions() !== this.dimensions)
      throw new VectorIndexError(`index file ${path} has ${fresh.dimensions()} dimensions, expected ${this.dimensions}`);
    this.index = fresh;
    // usearch's load reserves for all threads.
    this.reservedThreads = ALL_THREADS;
    this.keySet = savedKeys(path, meta, fresh.size());
  }
}

interface IndexFileMeta {
  format: "usearch-hnsw";
  dimensions: number;
  size: number;
  bytes: number;
  crc32: number;
  /** The key list's length and CRC-32 (files saved before it was kept have neither). */
  keys?: number;
  keysCrc32?: number;
}

function metaPath(path: string): string {
  return `${path}.meta.json`;
}

function keysPath(path: string): string {
  return `${path}.keys`;
}

/** The saved key list, or null when there is none or it does not match the meta and the index. */
function savedKeys(path: string, meta: Partial<IndexFileMeta>, size: number): Set<bigint> | null {
  if (meta.keys === undefined || meta.keys !== size || !existsSync(keysPath(path))) return null;
  const bytes = readFileSync(keysPath(path));
  if (bytes.length !== 8 * meta.keys || crc32(bytes) !== meta.keysCrc32) return null;
  return new Set(new BigUint64Array(Uint8Array.from(bytes).buffer));
}

function verifyIndexFile(path: string, dimensions: number): Partial<IndexFileMeta> {
  if (!existsSync(path) || !existsSync(metaPath(path))) throw new VectorIndexError(`index file ${path} or its ${metaPath(path)} is missing`);
  let meta: Partial<IndexFileMeta>;
  try {
    meta = JSON.parse(readFileSync(metaPath(path), "utf8")) as Partial<IndexFileMeta>;
  } catch {
    throw new VectorIndexError(`${metaPath(path)} is not valid JSON`);
  }
  if (meta.format !== "usearch-hnsw") throw new VectorIndexError(`${path} is not a usearch index file`);
  if (meta.dimensions !== dimensions) throw new VectorIndexError(`index file ${path} has ${meta.dimensions} dimensions, expected ${dimensions}`);
  const bytes = fileChecksum(path);
  if (bytes.length !== meta.bytes || bytes.crc32 !== meta.crc32) throw new VectorIndexError(`index file ${path} is corrupt (size or checksum mismatch)`);
  return meta;
}

/** A file's length and CRC-32, read a piece at a time: an index of a million vectors is over the 2 GiB one read can return. */
function fileChecksum(path: string): { length: number; crc32: number } {
  const fd = openSync(path, "r");
  try {
    const piece = Buffer.allocUnsafe(64 * 1024 * 1024);
    let length = 0;
    let crc = 0;
    for (let n = readSync(fd, piece, 0, piece.length, null); n > 0; n = readSync(fd, piece, 0, piece.length, null)) {
      crc = crc32(piece.subarray(0, n), crc);
      length += n;
    }
    return { length, crc32: crc };
  } finally {
    closeSync(fd);
  }
}
