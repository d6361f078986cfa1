import type { Projection, ProjectionItem } from "../ast/clauses.js";
import type { Expr } from "../ast/expressions.js";
import { findAggregates, forEachChild } from "../ast/expression-walk.js";
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
  const itemCx: ExprContext = { ...cx, aggregates: true, inAggregate: false, inWhere: false, projection: true };
  const next = new Map<string, VariableInfo>();
  if (p.star) for (const [k, v] of scope) next.set(k, v);
  const names = new Set<string>();
  for (const item of p.items) {
    const type = checkExpr(item.expr, itemCx);
    const name = item.alias ?? item.text;
    if (names.has(name)) throw fail(cx, item, "ColumnNameConflict", `multiple result columns with the same name \`${name}\``);
    names.add(name);
    const source = item.expr.kind === "Variable" ? scope.get(item.expr.name) : undefined;
    next.set(name, source ?? { kind: "value", type });
  }
  const aggregating = p.items.some((i) => findAggregates(i.expr).length > 0);
  if (aggregating) checkGrouping(p.items, cx);
  checkOrderBy(p, aggregating, next, cx);
  // Checked after ORDER BY: Neo4j reports ambiguous aggregation in ORDER BY first.
  const unaliased = p.kind === "With" ? p.items.find((item) => item.alias === null && item.expr.kind !== "Variable") : undefined;
  if (unaliased !== undefined) throw fail(cx, unaliased, "NoExpressionAlias", "expression in WITH must be aliased (use AS)");
  for (const [e, what] of [
    [p.skip, "SKIP"],
    [p.limit, "LIMIT"],
  ] as const)
    if (e !== null) checkCount(e, what, cx);
  if (where !== null) {
    // WITH ... WHERE may also read variables that the projection dropped (unless it aggregates).
    const whereScope = aggregating ? next : new Map([...scope, ...next]);
    const t = checkExpr(where, { ...cx, scope: whereScope, aggregates: false, inAggregate: false, inWhere: true });
    if (definitelyNot(t, "bool")) throw fail(cx, where, "InvalidArgumentType", "WHERE expects a boolean");
  }
  return next;
}

function isSimpleKey(e: Expr): boolean {
  return e.kind === "Variable" || (e.kind === "Property" && e.object.kind === "Variable");
}

function isAggregateCall(e: Expr): boolean {
  return e.kind === "FunctionCall" && findAggregates(e)[0] === e;
}

/** Comprehension-like expressions bind local variables for their inner parts. */
function locals(e: Expr): string[] {
  if (e.kind === "ListComprehension" || e.kind === "Quantifier") return [e.variable];
  if (e.kind === "Reduce") return [e.variable, e.accumulator];
  return [];
}

/**
 * Outside aggregate calls, an aggregating item may only use grouping keys that are variables or
 * simple property reads (Neo4j does not match complex grouping expressions inside other items).
 */
function checkGrouping(items: readonly ProjectionItem[], cx: ExprContext): void {
  const keys = new Set(items.filter((i) => findAggregates(i.expr).length === 0 && isSimpleKey(i.expr)).map((i) => exprKey(i.expr)));
  const ok = (e: Expr, local: ReadonlySet<string>): boolean => {
    if (isAggregateCall(e) || keys.has(exprKey(e))) return true;
    if (e.kind === "Variable") return local.has(e.name);
    const inner = new Set([...local, ...locals(e)]);
    let all = true;
    forEachChild(e, (c) => {
      if (!ok(c, inner)) all = false;
    });
    return all;
  };
  for (const item of items) {
    if (findAggregates(item.expr).length > 0 && !ok(item.expr, new Set())) {
      throw fail(cx, item, "AmbiguousAggregationExpression", "expression mixes aggregation with values that are not grouping keys");
    }
  }
}

function checkOrderBy(p: Projection, aggregating: boolean, next: Scope, cx: ExprContext): void {
  const items = new Map(p.items.map((i) => [exprKey(i.expr), i.expr] as const));
  const merged = new Map([...cx.scope, ...next]);
  const restricted = aggregating || p.distinct;
  for (const o of p.orderBy) {
    const hasAggregate = findAggregates(o.expr).length > 0;
    if (hasAggregate && !aggregating) throw fail(cx, o.expr, "InvalidAggregation", "aggregation in ORDER BY requires an aggregating projection");
    if (!restricted) {
      checkExpr(o.expr, { ...cx, scope: merged, aggregates: false, inAggregate: false, inWhere: false });
      continue;
    }
    let ambiguous = false;
    const walk = (e: Expr, local: ReadonlySet<string>): void => {
      const item = items.get(exprKey(e));
      if (item !== undefined) {
        if (hasAggregate && !isSimpleKey(item) && findAggregates(item).length === 0) ambiguous = true;
        return;
      }
      if (e.kind === "Variable" && !local.has(e.name) && !next.has(e.name)) {
        throw fail(cx, e, "UndefinedVariable", `variable \`${e.name}\` is not available after DISTINCT or aggregation`);
      }
      const inner = new Set([...local, ...locals(e)]);
      forEachChild(e, (c) => walk(c, inner));
    };
    walk(o.expr, new Set());
    if (ambiguous) throw fail(cx, o.expr, "AmbiguousAggregationExpression", "ORDER BY mixes aggregation with a non-variable grouping expression");
    checkExpr(o.expr, { ...cx, scope: merged, aggregates: aggregating, inAggregate: false, inWhere: false });
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
