import assert from "node:assert/strict";
import { test } from "node:test";
import type { PropertyValue } from "../../src/engines/cypher/index.js";
import { decodeLabels, decodeProperties, encodeLabels, encodeProperties } from "../../src/features/graph-collections/property-codec.js";

const sameValue = (a: PropertyValue, b: PropertyValue): boolean => {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i] as PropertyValue));
  }
  return typeof a === typeof b && Object.is(a, b);
};

test("property maps round-trip exactly: INTEGER vs FLOAT, 64-bit, special floats, strings, lists, key order", () => {
  const props = new Map<string, PropertyValue>([
    ["2", "integer-like keys keep their place"],
    ["int", 42n],
    ["negative", -7n],
    ["maxSafe", 9007199254740991n],
    ["beyondSafe", 9007199254740993n],
    ["int64max", 9223372036854775807n],
    ["int64min", -9223372036854775808n],
    ["floatIntegral", 2.0],
    ["float", 0.1],
    ["tiny", 5e-324],
    ["huge", 1.7976931348623157e308],
    ["nan", NaN],
    ["inf", Infinity],
    ["ninf", -Infinity],
    ["negZero", -0],
    ["zero", 0],
    ["str", 'quotes " and \\ and ü and \u0000'],
    ["empty", ""],
    ["bool", false],
    ["list", [1n, 2n, 3n]],
    ["floats", [1.0, 2.5]],
    ["nested", [[1n], [2.0, ["x", true]], []]],
    ["1", "also integer-like"],
  ]);
  const decoded = decodeProperties(encodeProperties(props));
  assert.deepEqual([...decoded.keys()], [...props.keys()]);
  for (const [k, v] of props) assert.ok(sameValue(decoded.get(k) as PropertyValue, v), `${k}: ${String(decoded.get(k))}`);
});

test("an empty map and labels round-trip", () => {
  assert.equal(decodeProperties(encodeProperties(new Map())).size, 0);
  assert.deepEqual(decodeLabels(encodeLabels(["A", "B b", "ü"])), ["A", "B b", "ü"]);
});

test("malformed stored text is reported, not misread", () => {
  for (const bad of ['{"a": 1}', '[["k", 1.5]]', '[["k", {"x": 1}]]', "[[1, 2]]", '[["k", {"f": "nope"}]]']) {
    assert.throws(() => decodeProperties(bad), /stored/);
  }
  assert.throws(() => decodeLabels('["a", 1]'), /labels/);
});
