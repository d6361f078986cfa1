import type { Expr } from "../ast/expressions.js";

/** Structural identity of expressions, ignoring source positions (`n.x` here equals `n.x` there). */
export function exprKey(e: Expr): string {
  return JSON.stringify(e, (k, v: unknown) => (k === "span" ? undefined : typeof v === "bigint" ? `${v}n` : v));
}
