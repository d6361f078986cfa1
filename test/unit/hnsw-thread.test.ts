import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { HnswThread } from "../../src/engines/vector-index/hnsw-thread.js";
import { randomVectors } from "../helpers/random-vectors.js";

const DIMS = 16;

describe("the HNSW thread", () => {
  const dir = mkdtempSync(join(tmpdir(), "hnsw-thread-"));
  const thread = new HnswThread();
  after(async () => {
    await thread.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers a search posted right after an add, without waiting for the add, with that add's vectors", async () => {
    const index = await thread.create(DIMS);
    const vectors = randomVectors(200, 1, DIMS);
    const keys = vectors.map((_, i) => 1000 + i);
    const adding = index.addMany(keys, vectors, 1);
    // The mirror knows the keys at once; the thread answers in order.
    assert.equal(index.size(), 200);
    assert.equal(index.has(1042), true);
    assert.ok(index.backlog() > 0);
    const found = await index.search(vectors[42]!, 3);
    assert.equal(found[0]?.key, 1042);
    assert.ok(Math.abs((found[0]?.score ?? 0) - 1) < 1e-5);
    await adding;
    assert.equal(index.backlog(), 0);
  });

  it("drops a removed key before anything posted later, and keeps its keys through save and load", async () => {
    const index = await thread.create(DIMS);
    const vectors = randomVectors(50, 2, DIMS);
    await index.addMany(
      vectors.map((_, i) => i + 1),
      vectors,
      0,
    );
    assert.equal(index.remove(8), true);
    assert.equal(index.remove(8), false);
    assert.notEqual((await index.search(vectors[7]!, 1))[0]?.key, 8);
    const path = join(dir, "saved.usearch");
    await index.save(path);
    const loaded = await thread.load(DIMS, path);
    assert.equal(loaded.size(), 49);
    assert.equal(loaded.has(8), false);
    assert.deepEqual(
      loaded.keysBetween(5, 10).sort((a, b) => a - b),
      [6, 7, 9, 10],
    );
    assert.equal((await loaded.search(vectors[20]!, 1))[0]?.key, 21);
    index.dispose();
    loaded.dispose();
  });

  it("refuses a file without its key list, or a damaged one, with a clear error", async () => {
    const index = await thread.create(DIMS);
    const vectors = randomVectors(10, 3, DIMS);
    await index.addMany(
      vectors.map((_, i) => i),
      vectors,
      1,
    );
    const path = join(dir, "keyless.usearch");
    await index.save(path);
    rmSync(`${path}.keys`);
    await assert.rejects(thread.load(DIMS, path), /no key list/);
    writeFileSync(path, "not an index");
    await assert.rejects(thread.load(DIMS, path), /corrupt/);
    await assert.rejects(thread.load(DIMS + 1, path), /dimensions/);
  });

  it("fails what was pending when the thread is closed, and starts a new thread on the next request", async () => {
    const own = new HnswThread();
    const index = await own.create(DIMS);
    const vectors = randomVectors(2000, 5, DIMS);
    const adding = assert.rejects(
      index.addMany(
        vectors.map((_, i) => i),
        vectors,
        1,
      ),
      /HNSW thread ended/,
    );
    const searching = assert.rejects(index.search(vectors[0]!, 1), /HNSW thread ended/);
    await own.close();
    await adding;
    await searching;
    // The keys it could not add are not mirrored as held.
    assert.equal(index.size(), 0);
    const fresh = await own.create(DIMS);
    await fresh.addMany([7], [vectors[7]!], 1);
    assert.equal((await fresh.search(vectors[7]!, 1))[0]?.key, 7);
    await own.close();
  });

  it("checks vector sizes before posting", async () => {
    const index = await thread.create(DIMS);
    await assert.rejects(index.addMany([1], [new Float32Array(DIMS + 1)], 1), /dimensions/);
    assert.equal(index.size(), 0);
    await assert.rejects(index.search(new Float32Array(3), 1), /dimensions/);
  });
});
