import { isAggregateName } from "../functions/function-registry.js";
import type { Expr } from "./expressions.js";

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
