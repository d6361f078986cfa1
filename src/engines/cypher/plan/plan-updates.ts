import type { RemoveItem, SetItem } from "../ast/clauses.js";
import type { Expr } from "../ast/expressions.js";
import type { PatternPart } from "../ast/patterns.js";
import { compileExpr } from "../exec/compile-expression.js";
import type { Evaluator } from "../exec/context.js";
import type { CreatePattern, SetOp } from "./logical-plan.js";
import { nodeName, relName } from "./match-planner.js";

function compiler(scope: ReadonlySet<string>): (e: Expr) => Evaluator {
  const env = { scope, aggregates: null };
  return (e) => compileExpr(e, env);
}

export function planCreatePattern(part: PatternPart, scope: ReadonlySet<string>): CreatePattern {
  const c = compiler(scope);
  return {
    pathVariable: part.pathVariable,
    nodes: part.nodes.map((n) => ({ variable: nodeName(n), labels: n.labels, props: n.properties === null ? null : c(n.properties) })),
    rels: part.rels.map((r) => ({
      variable: relName(r),
      type: r.types[0] ?? "",
      direction: r.direction === "in" ? "in" : "out",
      props: r.properties === null ? null : c(r.properties),
    })),
  };
}

export function planSetItems(items: readonly SetItem[], scope: ReadonlySet<string>): SetOp[] {
  const c = compiler(scope);
  return items.map((item): SetOp => {
    switch (item.kind) {
      case "SetProperty":
        return { kind: "SetProperty", target: c(item.target.object), key: item.target.key, value: c(item.value) };
      case "SetAllProperties": {
        const name = item.variable;
        return { kind: "SetAll", target: (row) => row[name] ?? null, value: c(item.value), merge: item.merge };
      }
      case "SetLabels": {
        const name = item.variable;
        return { kind: "SetLabels", target: (row) => row[name] ?? null, labels: item.labels };
      }
    }
  });
}

export function planRemoveItems(items: readonly RemoveItem[], scope: ReadonlySet<string>): SetOp[] {
  const c = compiler(scope);
  return items.map((item): SetOp => {
    switch (item.kind) {
      case "RemoveProperty":
        return { kind: "RemoveProperty", target: c(item.target.object), key: item.target.key };
      case "RemoveLabels": {
        const name = item.variable;
        return { kind: "RemoveLabels", target: (row) => row[name] ?? null, labels: item.labels };
      }
    }
  });
}
