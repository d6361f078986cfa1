import type { Projection, ProjectionItem } from "../ast/clauses.js";
import type { Expr } from "../ast/expressions.js";
import { findAggregates, forEachChild } from "../plan/plan-projection.js";
import { exprKey } from "./ast-equality.js";
import { checkExpr, fail } from "./check-expression.js";
import type { ExprContext } from "./check-expression.js";
import { freeVariables } from "./free-variables.js";
import type { Scope, VariableInfo } from "./scope.js";
import { definitelyNot } from "./static-type.js";

/** Checks WITH / RETURN and returns the scope after it. */
export function checkProjection(
  p: Projection & { readonly kind: "With" | "Return"; readonly span: { start: number } },
  where: Expr | null,
  cx: ExprContext,
): Map<string, VariableInfo> {
  const scope = cx.scope;
  const visible = [...scope.keys()];
  if (p.kind === "Return" && p.star && visible.length === 0) throw fail(cx, p, "NoVariablesInScope", "RETURN * / WITH * needs variables in scope");
  const itemCx: ExprContext = { ...cx, aggregates: true, inAggregate: false, inWhere: false };
  const next = new Map<string, VariableInfo>();
  if (p.star) for (const [k, v] of scope) next.set(k, v);
  const names = new Set<string>();
  for (const item of p.items) {
    const type = checkExpr(item.expr, itemCx);
    if (p.kind === "With" && item.alias === null && item.expr.kind !== "Variable") {
      throw fail(cx, item, "NoExpressionAlias", `expression in WITH must be aliased (use AS)`);
    }
    const name = item.alias ?? item.text;
    if (names.has(name)) throw fail(cx, item, "ColumnNameConflict", `multiple result columns with the same name \`${name}\``);
    names.add(name);
    const source = item.expr.kind === "Variable" ? scope.get(item.expr.name) : undefined;
    next.set(name, source ?? { kind: "value", type });
  }
  const aggregating = p.items.some((i) => findAggregates(i.expr).length > 0);
  if (aggregating) checkGrouping(p.items, cx);
  checkOrderBy(p, aggregating, next, cx);
  for (const [e, what] of [[p.skip, "SKIP"], [p.limit, "LIMIT"]] as const) if (e !== null) checkCount(e, what, cx);
  if (where !== null) {
    // WITH ... WHERE may also read variables that the projection dropped (unless it aggregates).
    const whereScope = aggregating ? next : new Map([...scope, ...next]);
    const t = checkExpr(where, { ...cx, scope: whereScope, aggregates: false, inAggregate: false, inWhere: true });
    if (definitelyNot(t, "bool")) throw fail(cx, where, "InvalidArgumentType", "WHERE expects a boolean");
  }
  return next;
}

/** Outside aggregate calls, an aggregating item may only use grouping keys. */
function checkGrouping(items: readonly ProjectionItem[], cx: ExprContext): void {
  const keys = new Set(items.filter((i) => findAggregates(i.expr).length === 0).map((i) => exprKey(i.expr)));
  const ok = (e: Expr): boolean => {
    if (keys.has(exprKey(e))) return true;
    if (findAggregates(e).length > 0 && e.kind === "FunctionCall" && findAggregates(e)[0] === e) return true;
    if (e.kind === "Variable") return false;
    let all = true;
    forEachChild(e, (c) => {
      if (!ok(c)) all = false;
    });
    if (e.kind === "ListComprehension" || e.kind === "Quantifier" || e.kind === "Reduce" || e.kind === "MapProjection") {
      const free = freeVariables(e);
      for (const v of free) if (!keys.has(exprKey({ kind: "Variable", name: v, span: e.span }))) return false;
    }
    return all;
  };
  for (const item of items) {
    if (findAggregates(item.expr).length > 0 && !ok(item.expr)) {
      throw fail(cx, item, "AmbiguousAggregationExpression", "expression mixes aggregation with values that are not grouping keys");
    }
  }
}

function checkOrderBy(p: Projection, aggregating: boolean, next: Scope, cx: ExprContext): void {
  const itemKeys = new Set(p.items.map((i) => exprKey(i.expr)));
  const merged = new Map([...cx.scope, ...next]);
  const restricted = aggregating || p.distinct;
  for (const o of p.orderBy) {
    const hasAggregate = findAggregates(o.expr).length > 0;
    if (hasAggregate && !aggregating) throw fail(cx, o.expr, "InvalidAggregation", "aggregation in ORDER BY requires an aggregating projection");
    checkExpr(o.expr, { ...cx, scope: merged, aggregates: aggregating, inAggregate: false, inWhere: false });
    if (!restricted || itemKeys.has(exprKey(o.expr))) continue;
    const covered = (e: Expr): boolean => {
      if (itemKeys.has(exprKey(e))) return true;
      if (e.kind === "FunctionCall" && findAggregates(e)[0] === e) return true;
      if (e.kind === "Variable") return next.has(e.name);
      let all = true;
      forEachChild(e, (c) => {
        if (!covered(c)) all = false;
      });
      return all;
    };
    if (!covered(o.expr)) {
      throw fail(cx, o.expr, hasAggregate ? "AmbiguousAggregationExpression" : "UndefinedVariable", "ORDER BY after DISTINCT or aggregation can only use projected values");
    }
  }
}

function checkCount(e: Expr, what: string, cx: ExprContext): void {
  if (freeVariables(e).size > 0) throw fail(cx, e, "NonConstantExpression", `${what} must be a constant expression`);
  checkExpr(e, { ...cx, scope: new Map(), aggregates: false });
  if (e.kind === "Literal") {
    if (typeof e.value === "bigint" && e.value < 0n) throw fail(cx, e, "NegativeIntegerArgument", `${what} must not be negative`);
    if (typeof e.value !== "bigint") throw fail(cx, e, "InvalidArgumentType", `${what} expects an integer`);
  }
}
