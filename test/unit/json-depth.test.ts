import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonDepthExceeds } from "../../src/platform/util/json-depth.js";

const nest = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

test("depth is counted outside strings only, to the limit and past it", () => {
  assert.equal(jsonDepthExceeds(nest(64)), false);
  assert.equal(jsonDepthExceeds(nest(65)), true);
  assert.equal(jsonDepthExceeds(`{"a":${nest(63)}}`), false);
  assert.equal(jsonDepthExceeds(`{"a":${nest(64)}}`), true);
  // Brackets inside strings do not count, whatever the string holds.
  assert.equal(jsonDepthExceeds(JSON.stringify({ a: "[".repeat(500), b: "{".repeat(500) })), false);
});

test("escaped quotes and backslashes end a string exactly where JSON does", () => {
  // An escaped quote does not end the string: the brackets after it are still text.
  assert.equal(jsonDepthExceeds(JSON.stringify({ a: `say "${"[".repeat(100)}` })), false);
  // An escaped backslash before the quote does: the brackets after the string count.
  const afterBackslash = `{"a":"x\\\\","b":${nest(70)}}`;
  assert.deepEqual(JSON.parse(afterBackslash) as unknown, { a: "x\\", b: JSON.parse(nest(70)) as unknown });
  assert.equal(jsonDepthExceeds(afterBackslash), true);
  // Three backslashes: an escaped backslash, then an escaped quote; the string goes on.
  const threeBackslashes = `{"a":"x\\\\\\"${"[".repeat(100)}"}`;
  assert.deepEqual(JSON.parse(threeBackslashes) as unknown, { a: `x\\"${"[".repeat(100)}` });
  assert.equal(jsonDepthExceeds(threeBackslashes), false);
  // A key and a value both strings, nested at the limit.
  assert.equal(jsonDepthExceeds(`${"[".repeat(63)}{"k\\"[":"v]\\\\"}${"]".repeat(63)}`), false);
});

test("an unterminated string ends the scan with what was counted before it", () => {
  assert.equal(jsonDepthExceeds(`${"[".repeat(10)}"${"[".repeat(100)}`), false);
  assert.equal(jsonDepthExceeds(`${"[".repeat(65)}"unterminated`), true);
});
