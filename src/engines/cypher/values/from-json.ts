import { CypherError } from "../errors.js";
import { NodeRef, PathValue, RelRef } from "./value.js";
import type { Value } from "./value.js";

/**
 * Converts caller-supplied parameters to engine values. JSON has one number type, so integral
 * numbers become INTEGER and the rest FLOAT; bigint stays INTEGER; plain objects become maps.
 * Lists and maps nested deeper than `maxDepth` are refused before the recursion can exhaust the stack.
 */
export function fromJson(v: unknown, maxDepth = Infinity): Value {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case "boolean":
    case "string":
    case "bigint":
      return v;
    case "number":
      return Number.isSafeInteger(v) ? BigInt(v) : v;
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  if (maxDepth < 1 && typeof v === "object" && !(v instanceof NodeRef || v instanceof RelRef || v instanceof PathValue)) {
    throw new CypherError("SyntaxError", "compile time", "ParameterTooDeep", "parameters are nested too deeply");
  }
  if (Array.isArray(v)) return v.map((x) => fromJson(x, maxDepth - 1));
  if (v instanceof Map || v instanceof NodeRef || v instanceof RelRef || v instanceof PathValue) return v as Value;
  if (typeof v === "object") {
    const m = new Map<string, Value>();
    for (const [k, x] of Object.entries(v)) m.set(k, fromJson(x, maxDepth - 1));
    return m;
  }
  throw new TypeError(`unsupported parameter value of type ${typeof v}`);
}
