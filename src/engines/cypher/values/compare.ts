import { NodeRef, PathValue, RelRef, typeName } from "./value.js";
import type { Value } from "./value.js";

/** Ternary equality (`=`): null when either side is null or the answer depends on a null. */
export function cypherEquals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b)) return numCompare(a, b) === 0;
  if (typeof a === "string" || typeof a === "boolean") return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return allEqual(a.map((x, i) => [x, b[i] ?? null]));
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    const pairs: [Value, Value][] = [];
    for (const [k, v] of a) {
      if (!b.has(k)) return false;
      pairs.push([v, b.get(k) ?? null]);
    }
    return allEqual(pairs);
  }
  if (a instanceof NodeRef) return b instanceof NodeRef && a.id === b.id;
  if (a instanceof RelRef) return b instanceof RelRef && a.id === b.id;
  if (a instanceof PathValue) {
    if (!(b instanceof PathValue) || a.rels.length !== b.rels.length) return false;
    return a.nodes.every((n, i) => n.id === b.nodes[i]?.id) && a.rels.every((r, i) => r.id === b.rels[i]?.id);
  }
  return false;
}

function allEqual(pairs: [Value, Value][]): boolean | null {
  let sawNull = false;
  for (const [x, y] of pairs) {
    const r = cypherEquals(x, y);
    if (r === false) return false;
    if (r === null) sawNull = true;
  }
  return sawNull ? null : true;
}

function isNum(v: Value): v is bigint | number {
  return typeof v === "bigint" || typeof v === "number";
}

/** Numeric comparison across INTEGER and FLOAT without losing precision on large integers. NaN yields NaN. */
function numCompare(a: bigint | number, b: bigint | number): number {
  if (typeof a === "bigint" && typeof b === "bigint") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) return Number.NaN;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "bigint") return -numCompare(b, a) || 0;
  const f = a;
  const i = b as bigint;
  if (Number.isNaN(f)) return Number.NaN;
  if (!Number.isFinite(f)) return f > 0 ? 1 : -1;
  const fi = Math.floor(f);
  const bf = BigInt(fi);
  if (bf < i) return -1;
  if (bf > i) return 1;
  return f > fi ? 1 : 0;
}

/**
 * Ternary comparison for `<`, `>`, `<=`, `>=`: returns a sign, or null when the values are not
 * comparable (different types, nulls, NaN involvement gives false via NaN handling in the caller).
 */
export function cypherCompare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b)) return numCompare(a, b);
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = cypherCompare(a[i] ?? null, b[i] ?? null);
      if (c === null) return null;
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return null;
}

const ORDER_RANK: Record<string, number> = {
  MAP: 0,
  NODE: 1,
  RELATIONSHIP: 2,
  LIST: 3,
  PATH: 4,
  STRING: 5,
  BOOLEAN: 6,
  INTEGER: 7,
  FLOAT: 7,
  NULL: 9,
};

/** Total order used by ORDER BY, min/max and sorting: every pair of values is ordered. */
export function orderCompare(a: Value, b: Value): number {
  const ra = ORDER_RANK[typeName(a)] ?? 9;
  const rb = ORDER_RANK[typeName(b)] ?? 9;
  if (ra !== rb) return ra - rb;
  if (a === null || b === null) return 0;
  if (isNum(a) && isNum(b)) {
    const an = typeof a === "number" && Number.isNaN(a);
    const bn = typeof b === "number" && Number.isNaN(b);
    if (an || bn) return an && bn ? 0 : an ? 1 : -1;
    return numCompare(a, b);
  }
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = orderCompare(a[i] ?? null, b[i] ?? null);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (a instanceof Map && b instanceof Map) {
    const ka = [...a.keys()].sort();
    const kb = [...b.keys()].sort();
    const c = orderCompare(ka, kb);
    if (c !== 0) return c;
    for (const k of ka) {
      const d = orderCompare(a.get(k) ?? null, b.get(k) ?? null);
      if (d !== 0) return d;
    }
    return 0;
  }
  if (a instanceof NodeRef && b instanceof NodeRef) return a.id - b.id;
  if (a instanceof RelRef && b instanceof RelRef) return a.id - b.id;
  if (a instanceof PathValue && b instanceof PathValue) {
    const c = orderCompare(a.nodes.slice(), b.nodes.slice());
    return c !== 0 ? c : orderCompare(a.rels.slice(), b.rels.slice());
  }
  return 0;
}

/**
 * A string that is equal for equivalent values (grouping, DISTINCT): like `=` but null is
 * equivalent to null, NaN to NaN, and 1 to 1.0.
 */
export function valueKey(v: Value): string {
  if (v === null) return "_";
  switch (typeof v) {
    case "boolean":
      return v ? "T" : "F";
    case "bigint":
      return `n${v}`;
    case "number":
      if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) return `n${BigInt(v)}`;
      return `n${v}`;
    case "string":
      return `s${JSON.stringify(v)}`;
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  if (Array.isArray(v)) return `[${v.map(valueKey).join(",")}]`;
  if (v instanceof Map) {
    const keys = [...v.keys()].sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${valueKey(v.get(k) ?? null)}`).join(",")}}`;
  }
  if (v instanceof NodeRef) return `N${v.id}`;
  if (v instanceof RelRef) return `R${v.id}`;
  return `P${v.nodes.map((n) => n.id).join(".")}|${v.rels.map((r) => r.id).join(".")}`;
}
