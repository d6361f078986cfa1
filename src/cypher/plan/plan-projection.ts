import type { OrderItem, Projection } from "../ast/clauses.js";
import type { Expr } from "../ast/expressions.js";
import { compileExpr } from "../exec/compile-expression.js";
import type { Evaluator } from "../exec/context.js";
import { isAggregateName } from "../functions/function-registry.js";
import type { AggregateSlot, ProjectionSpec } from "./logical-plan.js";

/** Aggregate calls inside an expression, outermost first; nested comprehension bodies included. */
export function findAggregates(e: Expr, out: Expr[] = []): Expr[] {
  if (e.kind === "FunctionCall" && isAggregateName(e.name)) {
    out.push(e);
    return out;
  }
  forEachChild(e, (c) => findAggregates(c, out));
  return out;
}

export function forEachChild(e: Expr, f: (c: Expr) => void): void {
  switch (e.kind) {
    case "Literal":
    case "Parameter":
    case "Variable":
    case "PatternPredicate":
    case "ShortestPath":
      return;
    case "List":
      return e.items.forEach(f);
    case "Map":
      return e.entries.forEach(([, v]) => f(v));
    case "Property":
      return f(e.object);
    case "Index":
      f(e.object);
      return f(e.index);
    case "Slice":
      f(e.object);
      if (e.from) f(e.from);
      if (e.to) f(e.to);
      return;
    case "Unary":
      return f(e.operand);
    case "Binary":
      f(e.left);
      return f(e.right);
    case "Comparison":
      return e.operands.forEach(f);
    case "IsNull":
    case "HasLabels":
      return f(e.operand);
    case "FunctionCall":
      return e.args.forEach(f);
    case "Case":
      if (e.subject) f(e.subject);
      e.whens.forEach(([w, t]) => {
        f(w);
        f(t);
      });
      if (e.otherwise) f(e.otherwise);
      return;
    case "ListComprehension":
      f(e.list);
      if (e.where) f(e.where);
      if (e.projection) f(e.projection);
      return;
    case "Quantifier":
      f(e.list);
      if (e.where) f(e.where);
      return;
    case "Reduce":
      f(e.init);
      f(e.list);
      return f(e.body);
    case "PatternComprehension":
      if (e.where) f(e.where);
      return f(e.projection);
    case "MapProjection":
      for (const item of e.items) if (item.kind === "LiteralEntry") f(item.value);
      return;
  }
}

export function columnName(item: { readonly alias: string | null; readonly text: string }): string {
  return item.alias ?? item.text;
}

/** WITH / RETURN -> projection spec; returns the spec and the names visible afterwards. */
export function planProjection(
  p: Projection,
  where: Expr | null,
  scope: ReadonlySet<string>,
): { spec: ProjectionSpec; names: string[] } {
  const aggregateCalls: Expr[] = [];
  for (const item of p.items) findAggregates(item.expr, aggregateCalls);
  const aggregating = aggregateCalls.length > 0;
  for (const o of p.orderBy) findAggregates(o.expr, aggregateCalls);
  const slots = new Map<Expr, string>();
  const slotSpecs: AggregateSlot[] = [];
  const env = { scope, aggregates: slots };
  aggregateCalls.forEach((call, i) => {
    if (call.kind !== "FunctionCall") return;
    const slot = ` agg${i}`;
    slots.set(call, slot);
    const arg = call.star ? null : compileArg(call.args[0], scope);
    const extra = call.args.length > 1 ? compileArg(call.args[1], scope) : null;
    slotSpecs.push({ slot, name: call.name, distinct: call.distinct, arg, extra });
  });
  const keep = p.star ? [...scope].filter((v) => !v.startsWith(" ")).sort() : [];
  const items = p.items.map((item) => ({ name: columnName(item), eval: compileExpr(item.expr, env) }));
  const keys = aggregating
    ? [
        ...keep.map((name): Evaluator => (row) => row[name] ?? null),
        ...p.items.filter((i) => findAggregates(i.expr).length === 0).map((i) => compileExpr(i.expr, env)),
      ]
    : [];
  const names = [...keep, ...items.map((i) => i.name)];
  const after = new Set([...scope, ...names]);
  const orderEnv = { scope: after, aggregates: slots };
  const orderBy = p.orderBy.map((o: OrderItem) => ({ eval: compileExpr(o.expr, orderEnv), descending: o.descending }));
  const constant = { scope: new Set<string>(), aggregates: null };
  return {
    spec: {
      items,
      keep,
      aggregation: aggregating ? { keys, slots: slotSpecs } : null,
      distinct: p.distinct,
      orderBy,
      skip: p.skip === null ? null : compileExpr(p.skip, constant),
      limit: p.limit === null ? null : compileExpr(p.limit, constant),
      where: where === null ? null : compileExpr(where, { scope: after, aggregates: null }),
    },
    names,
  };
}

function compileArg(e: Expr | undefined, scope: ReadonlySet<string>): Evaluator {
  if (e === undefined) return () => null;
  return compileExpr(e, { scope, aggregates: null });
}
