import type { PropertyValue } from "../../engines/cypher/index.js";

/**
 * Stored form of property values: JSON text that round-trips every Cypher property value exactly.
 * JSON has one number type, so the two Cypher number types are told apart by shape:
 *
 * - INTEGER (bigint) within ±(2^53 - 1): a plain JSON number (`42`), the common case kept small;
 *   beyond that: `{"i": "<decimal digits>"}`, exact to 64 bits.
 * - FLOAT (number): always `{"f": <number>}`, so `1.0` stays FLOAT; NaN, ±Infinity and -0 have
 *   no JSON number form and are stored as `{"f": "NaN"}`, `{"f": "Infinity"}`, `{"f": "-Infinity"}`,
 *   `{"f": "-0"}`. Finite doubles print in their shortest round-trip form, so no bits are lost.
 * - STRING, BOOLEAN: themselves. LIST: a JSON array of encoded elements (nesting allowed).
 *
 * A property map is an array of `[key, value]` pairs rather than an object, so key order (which
 * `keys()` and `properties()` expose) survives, including integer-like keys that JavaScript
 * objects would reorder.
 */
type Encoded = string | boolean | number | { f: number | string } | { i: string } | Encoded[];

const SPECIAL_FLOATS: Readonly<Record<string, number>> = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, "-0": -0 };

function encodeValue(v: PropertyValue): Encoded {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "bigint":
      return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : { i: v.toString() };
    case "number":
      if (Object.is(v, -0)) return { f: "-0" };
      return Number.isFinite(v) ? { f: v } : { f: String(v) };
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  return v.map(encodeValue);
}

function decodeValue(e: unknown): PropertyValue {
  if (typeof e === "string" || typeof e === "boolean") return e;
  if (typeof e === "number") {
    if (!Number.isSafeInteger(e)) throw new Error(`stored integer ${e} is not exact`);
    return BigInt(e);
  }
  if (Array.isArray(e)) return e.map(decodeValue);
  if (typeof e === "object" && e !== null) {
    if ("i" in e && typeof e.i === "string") return BigInt(e.i);
    if ("f" in e) {
      if (typeof e.f === "number") return e.f;
      if (typeof e.f === "string" && e.f in SPECIAL_FLOATS) return SPECIAL_FLOATS[e.f] ?? NaN;
    }
  }
  throw new Error(`unreadable stored property value ${JSON.stringify(e)}`);
}

const EMPTY_MAP = "[]";

export function encodeProperties(props: ReadonlyMap<string, PropertyValue>): string {
  if (props.size === 0) return EMPTY_MAP;
  const pairs: [string, Encoded][] = [];
  for (const [k, v] of props) pairs.push([k, encodeValue(v)]);
  return JSON.stringify(pairs);
}

export function decodeProperties(text: string): Map<string, PropertyValue> {
  const out = new Map<string, PropertyValue>();
  if (text === EMPTY_MAP) return out;
  const pairs = JSON.parse(text) as unknown;
  if (!Array.isArray(pairs)) throw new Error("stored properties are not a list of pairs");
  for (const pair of pairs) {
    if (!Array.isArray(pair) || typeof pair[0] !== "string") throw new Error("stored property pair is malformed");
    out.set(pair[0], decodeValue(pair[1]));
  }
  return out;
}

export function encodeLabels(labels: readonly string[]): string {
  return JSON.stringify(labels);
}

export function decodeLabels(text: string): string[] {
  const labels = JSON.parse(text) as unknown;
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === "string")) throw new Error("stored labels are malformed");
  return labels;
}
