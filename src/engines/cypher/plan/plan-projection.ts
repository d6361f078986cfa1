import type { OrderItem, Projection } from "../ast/clauses.js";
import type { Expr } from "../ast/expressions.js";
import { compileExpr } from "../exec/compile-expression.js";
import type { Evaluator } from "../exec/context.js";
import { findAggregates } from "../ast/expression-walk.js";
import type { AggregateSlot, ProjectionSpec } from "./logical-plan.js";

function columnName(item: { readonly alias: string | null; readonly text: string }): string {
  return item.alias ?? item.text;
}

/** WITH / RETURN -> projection spec; returns the spec and the names visible afterwards. */
export function planProjection(p: Projection, where: Expr | null, scope: ReadonlySet<string>): { spec: ProjectionSpec; names: string[] } {
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
        ...keep.map(
          (name): Evaluator =>
            (row) =>
              row[name] ?? null,
        ),
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
