import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeTerms, encodeTerms } from "../../src/features/items/chunk-terms.js";

const sorted = (pairs: Array<[string, number]>): Array<[string, number]> => [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

test("stored postings read back as they were written, whatever the terms", () => {
  const cases: Array<Array<[string, number]>> = [
    [],
    [["tea", 1]],
    [
      ["jasmin", 2],
      ["2023", 1],
      ["8", 3],
      ["afternoon", 12],
    ],
    [
      ["__proto__", 1],
      ["constructor", 2],
    ],
    [
      ['say "hi"', 1],
      ["back\\slash", 2],
      ["tab\there", 3],
      ["naïve", 4],
      ["日本", 5],
      ["emoji 🙂", 6],
      ["\u0001", 7],
    ],
  ];
  for (const pairs of cases) {
    const stored = encodeTerms(new Map(pairs));
    assert.deepEqual(sorted(decodeTerms(stored)), sorted(pairs), stored);
  }
});

test("postings written by another writer (whitespace, fractions) still read through JSON; none for null", () => {
  assert.deepEqual(sorted(decodeTerms('{ "a": 1, "b" : 2 }')), [
    ["a", 1],
    ["b", 2],
  ]);
  assert.deepEqual(decodeTerms('{"a":1.5}'), [["a", 1.5]]);
  assert.deepEqual(decodeTerms('{"a":0,"b":1}'), [["b", 1]], "a zero frequency is no posting");
  assert.deepEqual(decodeTerms(null), []);
  assert.deepEqual(decodeTerms(""), []);
  assert.throws(() => decodeTerms('{"a":1'), SyntaxError, "a truncated row is an error, not silently fewer postings");
});
