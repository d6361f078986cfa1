import { runtimeTypeError } from "../errors.js";
import type { ComparisonOp } from "../ast/expressions.js";
import { cypherCompare, cypherEquals } from "../values/compare.js";
import { typeName } from "../values/value.js";
import type { Value } from "../values/value.js";

export function asBool(v: Value, what: string): boolean | null {
  if (v === null || typeof v === "boolean") return v;
  throw runtimeTypeError("InvalidArgumentType", `${what} expects a boolean, got ${typeName(v)}`);
}

export function and3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  if (a === null || b === null) return null;
  return true;
}

export function or3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === true || b === true) return true;
  if (a === null || b === null) return null;
  return false;
}

export function xor3(a: boolean | null, b: boolean | null): boolean | null {
  if (a === null || b === null) return null;
  return a !== b;
}

export function compareOp(op: ComparisonOp, a: Value, b: Value): boolean | null {
  switch (op) {
    case "=":
      return cypherEquals(a, b);
    case "<>": {
      const eq = cypherEquals(a, b);
      return eq === null ? null : !eq;
    }
    case "<":
    case ">":
    case "<=":
    case ">=": {
      const c = cypherCompare(a, b);
      if (c === null) return null;
      if (Number.isNaN(c)) return false;
      if (op === "<") return c < 0;
      if (op === ">") return c > 0;
      if (op === "<=") return c <= 0;
      return c >= 0;
    }
  }
}

/** `x IN list` with ternary semantics: null when no match was found but a comparison was null. */
export function inList(x: Value, list: Value): boolean | null {
  if (list === null) return null;
  if (!Array.isArray(list)) throw runtimeTypeError("InvalidArgumentType", `IN expects a list, got ${typeName(list)}`);
  let sawNull = false;
  for (const item of list) {
    const eq = cypherEquals(x, item);
    if (eq === true) return true;
    if (eq === null) sawNull = true;
  }
  return sawNull ? null : false;
}
