import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tokenize } from "../../src/engines/bm25/index.js";
import { diversify } from "../../src/features/search/expansion.js";

interface Hit {
  id: string;
  score: number;
  text: string;
}
const run = (hits: Hit[]): string[] =>
  diversify(
    hits,
    (h) => h.score,
    (h) => tokenize(h.text),
  ).map((h) => h.id);

describe("diversify (maximal marginal relevance over term sets)", () => {
  it("keeps the ranking when no two hits share words", () => {
    assert.deepEqual(
      run([
        { id: "a", score: 1, text: "budget review moved to thursday" },
        { id: "b", score: 0.9, text: "caroline adopted a puppy" },
        { id: "c", score: 0.8, text: "launch plan needs sign off" },
      ]),
      ["a", "b", "c"],
    );
  });

  it("pushes a near-duplicate of a chosen hit below a distinct one of nearly equal score", () => {
    assert.deepEqual(
      run([
        { id: "a", score: 1, text: "the budget review moved to thursday afternoon" },
        { id: "dup", score: 0.99, text: "the budget review moved to thursday afternoon again" },
        { id: "other", score: 0.97, text: "caroline adopted a puppy from the shelter" },
        { id: "last", score: 0.1, text: "weather was sunny" },
      ]),
      ["a", "other", "dup", "last"],
    );
  });

  it("returns every item once, duplicates of the same object included", () => {
    const same: Hit = { id: "x", score: 0.5, text: "same words here" };
    const out = run([{ id: "y", score: 0.6, text: "other words" }, same, same]);
    assert.deepEqual(out, ["y", "x", "x"]);
  });
  it("with a limit, chooses the same first places as without and keeps the rest in their given order", () => {
    const words = ["budget", "review", "thursday", "puppy", "shelter", "launch", "plan", "sign", "pottery", "class"];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const hits: Hit[] = Array.from({ length: 40 }, (_, i) => ({
      id: `h${i}`,
      score: 1 - i / 50,
      text: Array.from({ length: 6 }, () => words[Math.floor(next() * words.length)]!).join(" "),
    }));
    const full = diversify(
      hits,
      (h) => h.score,
      (h) => tokenize(h.text),
    ).map((h) => h.id);
    const limited = diversify(
      hits,
      (h) => h.score,
      (h) => tokenize(h.text),
      undefined,
      10,
    ).map((h) => h.id);
    assert.deepEqual(limited.slice(0, 10), full.slice(0, 10));
    assert.notDeepEqual(
      full.slice(0, 10),
      hits.slice(0, 10).map((h) => h.id),
      "the fixture must make MMR reorder",
    );
    const rest = hits.map((h) => h.id).filter((id) => !limited.slice(0, 10).includes(id));
    assert.deepEqual(limited.slice(10), rest);
  });
});
