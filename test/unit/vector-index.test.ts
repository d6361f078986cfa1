import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createVectorIndex, UsearchIndex, VectorIndexError } from "../../src/engines/vector-index/index.js";
import type { VectorIndex, VectorIndexConfig } from "../../src/engines/vector-index/index.js";

const DIMS = 16;

/** Deterministic vectors: a seeded LCG, so failures reproduce. */
function randomVectors(count: number, seed: number): Float32Array[] {
  let x = seed;
  const next = (): number => {
    x = (x * 1664525 + 1013904223) % 4294967296;
    return x / 4294967296 - 0.5;
  };
  return Array.from({ length: count }, () => Float32Array.from({ length: DIMS }, next));
}

function bruteForce(vectors: Float32Array[], query: Float32Array, k: number, keep: (i: number) => boolean = () => true): number[] {
  const cos = (a: Float32Array, b: Float32Array): number => {
    let d = 0,
      na = 0,
      nb = 0;
    for (let i = 0; i < DIMS; i++) {
      d += (a[i] ?? 0) * (b[i] ?? 0);
      na += (a[i] ?? 0) ** 2;
      nb += (b[i] ?? 0) ** 2;
    }
    return d / Math.sqrt(na * nb);
  };
  return vectors
    .map((v, i) => ({ i, s: cos(v, query) }))
    .filter((e) => keep(e.i))
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map((e) => e.i);
}

const dir = mkdtempSync(join(tmpdir(), "vector-index-"));
after(() => rmSync(dir, { recursive: true, force: true }));

for (const config of [
  { kind: "hnsw", dimensions: DIMS },
  { kind: "exact", dimensions: DIMS },
] satisfies VectorIndexConfig[]) {
  describe(`vector index: ${config.kind}`, () => {
    const vectors = randomVectors(2000, 11);
    const build = (): VectorIndex => {
      const index = createVectorIndex(config);
      vectors.forEach((v, i) => index.add(i, v));
      return index;
    };

    it("finds the exact nearest neighbours (recall@10 >= 0.95 for HNSW)", () => {
      const index = build();
      assert.equal(index.size(), 2000);
      let hits = 0;
      const queries = randomVectors(20, 99);
      for (const q of queries) {
        const expected = new Set(bruteForce(vectors, q, 10));
        const got = index.search(q, 10);
        assert.equal(got.length, 10);
        for (let i = 1; i < got.length; i++) assert.ok((got[i - 1]?.score ?? 0) >= (got[i]?.score ?? 0), "best first");
        hits += got.filter((m) => expected.has(Number(m.key))).length;
      }
      const recall = hits / (queries.length * 10);
      assert.ok(config.kind === "exact" ? recall === 1 : recall >= 0.95, `recall ${recall}`);
    });

    it("returns a stored vector as its own best match with score ~1", () => {
      const index = build();
      const [best] = index.search(vectors[123] ?? new Float32Array(DIMS), 1);
      assert.equal(best?.key, 123n);
      assert.ok(Math.abs((best?.score ?? 0) - 1) < 1e-5);
    });

    it("applies filters, removals and replacements", () => {
      const index = build();
      const q = randomVectors(1, 5)[0] ?? new Float32Array(DIMS);
      const even = index.search(q, 5, (key) => key % 2n === 0n);
      assert.equal(even.length, 5);
      assert.ok(even.every((m) => m.key % 2n === 0n));
      const rare = index.search(q, 5, (key) => key % 500n === 0n);
      assert.deepEqual(
        rare.map((m) => Number(m.key)).sort((a, b) => a - b),
        [0, 500, 1000, 1500],
      );

      const top = index.search(q, 1)[0]?.key ?? -1n;
      assert.equal(index.remove(top), true);
      assert.equal(index.remove(top), false);
      assert.equal(index.has(top), false);
      assert.notEqual(index.search(q, 1)[0]?.key, top);
      index.add(7n, q);
      assert.equal(index.search(q, 1)[0]?.key, 7n);
      assert.equal(index.size(), 1999);
    });

    it("saves and loads", () => {
      const index = build();
      const path = join(dir, `${config.kind}.index`);
      index.save(path);
      const loaded = createVectorIndex(config);
      loaded.load(path);
      assert.equal(loaded.size(), 2000);
      const q = randomVectors(1, 77)[0] ?? new Float32Array(DIMS);
      assert.deepEqual(
        loaded.search(q, 5).map((m) => m.key),
        index.search(q, 5).map((m) => m.key),
      );
      loaded.add(5000, q);
      assert.equal(loaded.search(q, 1)[0]?.key, 5000n, "incremental adds continue after load");
    });

    it("rejects bad dimensions, keys and files", () => {
      const index = createVectorIndex(config);
      assert.throws(() => index.add(1, new Float32Array(DIMS + 1)), VectorIndexError);
      assert.throws(() => index.add(-1, new Float32Array(DIMS)), VectorIndexError);
      assert.deepEqual(index.search(new Float32Array(DIMS), 3), []);
      const junk = join(dir, `${config.kind}.junk`);
      writeFileSync(junk, "not an index");
      assert.throws(() => index.load(junk), VectorIndexError);
      const other = createVectorIndex({ ...config, dimensions: DIMS * 2 });
      other.add(1, new Float32Array(DIMS * 2).fill(1));
      const otherPath = join(dir, `${config.kind}.other`);
      other.save(otherPath);
      assert.throws(() => index.load(otherPath), /dimensions/);
      // A flipped byte must be caught before the native library reads the file.
      const good = build();
      const goodPath = join(dir, `${config.kind}.good`);
      good.save(goodPath);
      const bytes = readFileSync(goodPath);
      bytes[40] = (bytes[40] ?? 0) ^ 0xff;
      writeFileSync(goodPath, config.kind === "exact" ? bytes.subarray(0, bytes.length - 3) : bytes);
      assert.throws(() => index.load(goodPath), VectorIndexError);
    });
  });
}

describe("vector index: hnsw bulk adds", () => {
  // usearch reserves per-thread state only when an add outgrows its capacity: after a one-thread
  // add had grown it, a parallel add that fitted failed ("Reserve capacity ahead of insertions!",
  // seen as a 500 from /query in bench:retrieval while ingestion was adding small batches).
  it("adds in parallel after a one-thread add grew the capacity", () => {
    const index = new UsearchIndex({ dimensions: DIMS });
    const vectors = randomVectors(300, 3);
    const keys = vectors.map((_, i) => i);
    index.addMany(keys.slice(0, 256), vectors.slice(0, 256), 1);
    index.addMany(keys.slice(256, 257), vectors.slice(256, 257), 1);
    index.addMany(keys.slice(257), vectors.slice(257), 0);
    assert.equal(index.size(), 300);
    assert.equal(index.search(vectors[299] ?? new Float32Array(DIMS), 1)[0]?.key, 299n);
  });

  it("keeps its keys across save and load, and knows when a file came without them", () => {
    const index = new UsearchIndex({ dimensions: DIMS });
    const vectors = randomVectors(50, 4);
    index.addMany(
      vectors.map((_, i) => 100 + i),
      vectors,
    );
    index.remove(120);
    const path = join(dir, "keys.usearch");
    index.save(path);
    const loaded = new UsearchIndex({ dimensions: DIMS });
    loaded.load(path);
    assert.equal(loaded.knowsKeys(), true);
    assert.deepEqual(
      loaded.keysBetween(110, 125).sort((a, b) => a - b),
      [111, 112, 113, 114, 115, 116, 117, 118, 119, 121, 122, 123, 124, 125],
    );
    assert.equal(loaded.keys().length, 49);
    rmSync(`${path}.keys`);
    const without = new UsearchIndex({ dimensions: DIMS });
    without.load(path);
    assert.equal(without.knowsKeys(), false);
    assert.deepEqual(without.keysBetween(0, 1000), []);
    assert.equal(without.size(), 49);
    // The keys it holds, found by asking it about each, are taken; a list that differs is not.
    assert.equal(without.adoptKeys(loaded.keys().slice(1)), false);
    assert.equal(without.adoptKeys([...loaded.keys().slice(1), 120]), false);
    assert.equal(without.knowsKeys(), false);
    assert.equal(without.adoptKeys(loaded.keys()), true);
    assert.deepEqual(without.keysBetween(0, 1000).sort(), loaded.keys().sort());
  });

  it("holds f16 by default and loads a file saved as f32 as it was", () => {
    const vectors = randomVectors(200, 5);
    const keys = vectors.map((_, i) => i);
    const saved = (precision: "f16" | "f32" | undefined): string => {
      const index = new UsearchIndex({ dimensions: DIMS, ...(precision === undefined ? {} : { precision }) });
      index.addMany(keys, vectors, 1);
      const path = join(dir, `precision-${precision ?? "default"}.usearch`);
      index.save(path);
      return path;
    };
    const f32 = saved("f32");
    // 200 vectors of 16 dimensions: 6,400 bytes fewer at 2 bytes a number than at 4 (the graph's
    // levels are drawn at random, so its own size varies by a few bytes between builds).
    const smaller = (path: string): number => readFileSync(f32).length - readFileSync(path).length;
    for (const path of [saved(undefined), saved("f16")]) assert.ok(Math.abs(smaller(path) - 6400) < 1000, `${smaller(path)} bytes fewer`);
    const loaded = new UsearchIndex({ dimensions: DIMS });
    loaded.load(f32);
    assert.equal(loaded.size(), 200);
    for (const i of [0, 57, 199]) assert.equal(loaded.search(vectors[i] ?? new Float32Array(DIMS), 1)[0]?.key, BigInt(i));
    // The loaded index takes adds and finds them.
    const more = randomVectors(10, 6);
    loaded.addMany(
      more.map((_, i) => 1000 + i),
      more,
      1,
    );
    assert.equal(loaded.search(more[3] ?? new Float32Array(DIMS), 1)[0]?.key, 1003n);
  });
});
