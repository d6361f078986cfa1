/** Compile-time knowledge about a value's type; `any` when it is only known at runtime. */
export type StaticType =
  { readonly t: "any" | "null" | "bool" | "int" | "float" | "string" | "map" | "node" | "rel" | "path" } | { readonly t: "list"; readonly elem: StaticType };

export const ANY: StaticType = { t: "any" };
export const NULL: StaticType = { t: "null" };
export const BOOL: StaticType = { t: "bool" };
export const INT: StaticType = { t: "int" };
export const FLOAT: StaticType = { t: "float" };
export const STRING: StaticType = { t: "string" };
export const MAP: StaticType = { t: "map" };
export const NODE: StaticType = { t: "node" };
export const REL: StaticType = { t: "rel" };
export const PATH: StaticType = { t: "path" };

export function listOf(elem: StaticType): StaticType {
  return { t: "list", elem };
}

/** Least upper bound used for list literals and CASE branches. */
export function join(a: StaticType, b: StaticType): StaticType {
  if (a.t === "null") return b;
  if (b.t === "null") return a;
  if (a.t === "list" && b.t === "list") return listOf(join(a.elem, b.elem));
  return a.t === b.t ? a : ANY;
}

/** True when a value of static type `s` can never be one of `allowed` (null and any always can). */
export function definitelyNot(s: StaticType, ...allowed: StaticType["t"][]): boolean {
  if (s.t === "any" || s.t === "null") return false;
  return !allowed.includes(s.t);
}

export function isNumeric(s: StaticType): boolean {
  return s.t === "int" || s.t === "float";
}
