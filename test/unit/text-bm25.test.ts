import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bm25Idf, bm25Score, termFrequencies, tokenize } from "../../src/engines/bm25/index.js";
import type { Bm25Stats } from "../../src/engines/bm25/index.js";

describe("tokenize", () => {
  it("lowercases, drops punctuation and stop words, and stems with porter2", () => {
    assert.deepEqual(tokenize("The Runners were RUNNING quickly, and the dog's friends jumped!"), ["runner", "run", "quick", "dog", "friend", "jump"]);
  });

  it("keeps numbers, dates and times unstemmed and splits emails and URLs into parts", () => {
    assert.deepEqual(tokenize("Meet at 10:30am on 2023-04-05, cost 3.5"), ["meet", "10:30am", "2023-04-05", "cost", "3.5"]);
    assert.deepEqual(tokenize("Mail Bob@Example.com"), ["mail", "bob@example.com", "bob", "exampl"]);
    assert.deepEqual(tokenize("#Launch by @ada"), ["launch", "ada"]);
  });

  it("is deterministic and handles empty and non-Latin text", () => {
    const text = "Café naïve résumé 東京 встреча";
    assert.deepEqual(tokenize(text), tokenize(text));
    assert.deepEqual(tokenize(""), []);
    assert.ok(tokenize(text).includes("東京"));
  });

  it("counts term frequencies", () => {
    assert.deepEqual(
      [...termFrequencies("cats chase cats; a cat sleeps")],
      [
        ["cat", 3],
        ["chase", 1],
        ["sleep", 1],
      ],
    );
  });
});

describe("bm25Score", () => {
  const docs = ["the cat sat on the mat", "dogs chase cats in the park", "a treatise on quantum chromodynamics", "cat cat cat cat"].map((t) =>
    termFrequencies(t),
  );
  const lengths = docs.map((d) => [...d.values()].reduce((a, b) => a + b, 0));
  const stats: Bm25Stats = {
    docCount: docs.length,
    avgDocLength: lengths.reduce((a, b) => a + b, 0) / docs.length,
    docFreq: (term) => docs.filter((d) => d.has(term)).length,
  };
  const score = (query: string, i: number): number => bm25Score(tokenize(query), docs[i] ?? new Map(), lengths[i] ?? 0, stats);

  it("scores matching documents above non-matching ones and rare terms above common ones", () => {
    assert.equal(score("cat", 2), 0);
    assert.ok(score("cat", 0) > 0);
    assert.ok(score("quantum", 2) > score("cat", 0), "a rare term outweighs a common one");
  });

  it("saturates term frequency (k1) and normalizes length (b)", () => {
    const one = bm25Score(["cat"], new Map([["cat", 1]]), 4, stats);
    const four = bm25Score(["cat"], new Map([["cat", 4]]), 4, stats);
    assert.ok(four > one && four < 4 * one);
    const short = bm25Score(["cat"], new Map([["cat", 1]]), 2, stats);
    const long = bm25Score(["cat"], new Map([["cat", 1]]), 20, stats);
    assert.ok(short > long);
    const noLengthNorm = { k1: 1.2, b: 0 };
    assert.equal(bm25Score(["cat"], new Map([["cat", 1]]), 2, stats, noLengthNorm), bm25Score(["cat"], new Map([["cat", 1]]), 20, stats, noLengthNorm));
  });

  it("matches the closed form for k1 1.2, b 0.75 and counts repeated query terms once", () => {
    const idf = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5));
    assert.equal(bm25Idf(4, 2), idf);
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 3) / 3));
    assert.ok(Math.abs(bm25Score(["x", "x"], new Map([["x", 1]]), 3, { docCount: 4, avgDocLength: 3, docFreq: () => 2 }) - expected) < 1e-12);
    assert.equal(bm25Score(["x"], new Map([["x", 1]]), 3, { docCount: 0, avgDocLength: 0, docFreq: () => 0 }), 0);
  });
});
