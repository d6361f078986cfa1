import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bm25Score, termFrequencies, tokenize } from "../../src/engines/bm25/index.js";
import { InvertedIndex, searchBm25 } from "../../src/engines/bm25/inverted-index.js";

const texts = [
  "the cat sat on the mat",
  "dogs chase cats in the park",
  "a treatise on quantum chromodynamics",
  "cat cat cat cat",
  "the park has a pond with ducks and a cat",
  "quantum cats in a box, neither alive nor dead",
];

function indexOf(docs: ReadonlyArray<readonly [number, string]>): InvertedIndex {
  const index = new InvertedIndex();
  for (const [key, text] of docs) {
    const tf = termFrequencies(text);
    index.add(
      key,
      [...tf.values()].reduce((a, b) => a + b, 0),
      [...tf],
    );
  }
  return index;
}

/** The reference: bm25Score over every document, sorted by score then key. */
const tokenized = new WeakMap<object, ReadonlyArray<readonly [number, Map<string, number>]>>();
function reference(docs: ReadonlyArray<readonly [number, string]>, query: string): Array<{ chunkKey: number; score: number }> {
  const tfs = tokenized.get(docs) ?? docs.map(([key, text]) => [key, termFrequencies(text)] as const);
  tokenized.set(docs, tfs);
  const lengths = tfs.map(([, tf]) => [...tf.values()].reduce((a, b) => a + b, 0));
  const df = new Map<string, number>();
  for (const [, tf] of tfs) for (const term of tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const stats = {
    docCount: docs.length,
    avgDocLength: lengths.reduce((a, b) => a + b, 0) / docs.length,
    docFreq: (term: string) => df.get(term) ?? 0,
  };
  return tfs
    .map(([key, tf], i) => ({ chunkKey: key, score: bm25Score(tokenize(query), tf, lengths[i]!, stats) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.chunkKey - b.chunkKey);
}

const close = (actual: ReadonlyArray<{ chunkKey: number; score: number }>, expected: ReadonlyArray<{ chunkKey: number; score: number }>): void => {
  assert.deepEqual(
    actual.map((r) => r.chunkKey),
    expected.map((r) => r.chunkKey),
  );
  actual.forEach((r, i) => assert.ok(Math.abs(r.score - expected[i]!.score) < 1e-9, `${r.score} vs ${expected[i]!.score}`));
};

describe("InvertedIndex / searchBm25", () => {
  const docs = texts.map((t, i) => [i + 10, t] as const);

  it("ranks exactly as the reference BM25, across several indexes ranked as one corpus", () => {
    for (const query of ["cat in the park", "quantum", "ducks pond cats", "zebra"]) {
      close(searchBm25([indexOf(docs)], tokenize(query), 10, "or"), reference(docs, query));
      close(searchBm25([indexOf(docs.slice(0, 3)), indexOf(docs.slice(3))], tokenize(query), 10, "or"), reference(docs, query));
    }
  });

  it("keeps the k best, and with `and` only documents holding every term", () => {
    const all = reference(docs, "cat park");
    close(searchBm25([indexOf(docs)], tokenize("cat park"), 2, "or"), all.slice(0, 2));
    const both = searchBm25([indexOf(docs)], tokenize("cat park"), 10, "and").map((r) => r.chunkKey);
    assert.deepEqual(both.sort(), [11, 14]);
    assert.deepEqual(searchBm25([indexOf(docs)], tokenize("cat zebra"), 10, "and"), []);
  });

  it("tells whether a chunk holds every term, as the `and` search does (removed and unknown chunks hold none)", () => {
    const index = indexOf(docs);
    const terms = tokenize("cat park");
    const holding = docs.map(([key]) => key).filter((key) => index.hasEveryTerm(key, terms));
    assert.deepEqual(
      holding,
      searchBm25([index], terms, 10, "and")
        .map((r) => r.chunkKey)
        .sort(),
    );
    assert.equal(index.hasEveryTerm(11, tokenize("cat zebra")), false);
    index.remove(14);
    assert.equal(index.hasEveryTerm(14, terms), false);
    assert.equal(index.hasEveryTerm(999, terms), false);
  });

  it("gives a chunk's terms as tokenizing its text does, each once (none for removed and unknown chunks)", () => {
    const index = indexOf(docs);
    for (const [key, text] of docs) assert.deepEqual(index.termsOf(key)?.sort(), [...new Set(tokenize(text))].sort());
    index.remove(12);
    assert.equal(index.termsOf(12), undefined);
    assert.equal(index.termsOf(999), undefined);
  });

  it("restricts to the allowed chunk keys", () => {
    const hits = searchBm25([indexOf(docs)], tokenize("cat"), 10, "or", new Set([13, 15]));
    assert.deepEqual(hits.map((h) => h.chunkKey).sort(), [13, 15]);
  });

  it("removal is exact: statistics and ranking equal an index built without the document", () => {
    const index = indexOf(docs);
    index.remove(13);
    index.remove(999); // unknown keys are ignored
    const without = docs.filter(([k]) => k !== 13);
    assert.equal(index.docCount, without.length);
    assert.equal(index.has(13), false);
    assert.equal(index.docFreq("cat"), indexOf(without).docFreq("cat"));
    close(searchBm25([index], tokenize("cat park"), 10, "or"), reference(without, "cat park"));
  });

  it("stays exact through compaction of many removed documents and re-adding", () => {
    const many = Array.from({ length: 3000 }, (_, i) => [i, `${texts[i % texts.length]!} item${i % 7}`] as const);
    const index = indexOf(many);
    for (let i = 0; i < 2500; i++) index.remove(i);
    index.add(0, 3, [...termFrequencies("cat quantum park")]);
    const left = [[0, "cat quantum park"] as const, ...many.slice(2500)];
    assert.equal(index.docCount, left.length);
    close(searchBm25([index], tokenize("quantum cat item3"), 20, "or"), reference(left, "quantum cat item3").slice(0, 20));
  });

  it("skips documents that cannot reach the top k (MaxScore) and still returns the exhaustive top k", () => {
    // Zipf-like vocabulary: a few words in most documents (long postings, low idf), many rare ones.
    let seed = 20261126;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const vocab = Array.from({ length: 400 }, (_, i) => `w${i}x`);
    const word = (): string => vocab[Math.floor(vocab.length * random() ** 3)]!;
    const sentence = (): string => Array.from({ length: 3 + Math.floor(random() * 40) }, word).join(" ");
    const corpus = Array.from({ length: 4000 }, (_, i) => [i * 3 + 1, sentence()] as const);
    // Exact duplicates make ties, which must break by chunk key as in the exhaustive walk.
    const dupes = corpus.slice(0, 200).map(([, text], i) => [100_000 + i, text] as const);
    const all = [...corpus, ...dupes];
    const removed = new Set(all.filter(() => random() < 0.1).map(([key]) => key));
    const left = all.filter(([key]) => !removed.has(key));
    const whole = indexOf(all);
    for (const key of removed) whole.remove(key);
    const halves = [indexOf(left.filter((_, i) => i % 2 === 0)), indexOf(left.filter((_, i) => i % 2 === 1))];
    const allowed = new Set(left.filter(() => random() < 0.5).map(([key]) => key));
    const allowedDocs = left.filter(([key]) => allowed.has(key));
    let compared = 0;
    for (let q = 0; q < 60; q++) {
      const query = Array.from({ length: 1 + Math.floor(random() * 7) }, word).join(" ");
      const expected = reference(left, query);
      for (const k of [1, 10, 110]) {
        nearlyEqual(searchBm25([whole], tokenize(query), k, "or"), expected.slice(0, k));
        nearlyEqual(searchBm25(halves, tokenize(query), k, "or"), expected.slice(0, k));
        compared += 2;
      }
      // `allowed` restricts the documents, not the statistics.
      const restricted = expected.filter((r) => allowed.has(r.chunkKey)).slice(0, 10);
      nearlyEqual(searchBm25([whole], tokenize(query), 10, "or", allowed), restricted);
      assert.ok(allowedDocs.length > 0);
    }
    assert.equal(compared, 360);
  });
});

/**
 * Equal rankings: the same scores rank by rank (within 1e-9: the reference orders its
 * floating-point operations differently), and the same chunks, except that near-ties may swap.
 */
function nearlyEqual(actual: ReadonlyArray<{ chunkKey: number; score: number }>, expected: ReadonlyArray<{ chunkKey: number; score: number }>): void {
  assert.equal(actual.length, expected.length);
  actual.forEach((r, i) => assert.ok(Math.abs(r.score - expected[i]!.score) < 1e-9, `rank ${i}: ${r.score} vs ${expected[i]!.score}`));
  const last = expected.at(-1)?.score ?? 0;
  const clear = (rows: ReadonlyArray<{ chunkKey: number; score: number }>): number[] =>
    rows
      .filter((r) => r.score > last + 1e-9)
      .map((r) => r.chunkKey)
      .sort((a, b) => a - b);
  assert.deepEqual(clear(actual), clear(expected));
}
