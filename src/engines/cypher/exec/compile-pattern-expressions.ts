import type { Expr } from "../ast/expressions.js";
import { runtimeTypeError } from "../errors.js";
import { patternVariables } from "../semantic/free-variables.js";
import { nodeName, planMatch } from "../plan/match-planner.js";
import { NodeRef, typeName } from "../values/value.js";
import type { Value } from "../values/value.js";
import type { Compile, CompileEnv } from "./compile-expression.js";
import type { Evaluator } from "./context.js";
import { runMatch } from "./match-executor.js";
import { allShortestPaths, shortestPath } from "./shortest-path.js";

type PatternExpr = Extract<Expr, { kind: "PatternComprehension" | "PatternPredicate" | "ShortestPath" }>;

export function compilePatternExpr(expr: PatternExpr, env: CompileEnv, compile: Compile): Evaluator {
  const scoped = (e: Expr, scope: ReadonlySet<string>) => compile(e, { ...env, scope });
  switch (expr.kind) {
    case "PatternPredicate": {
      const program = planMatch([expr.pattern], null, env.scope, scoped);
      return (row, ctx) => {
        for (const _ of runMatch(program, row, ctx)) return true;
        return false;
      };
    }
    case "PatternComprehension": {
      const program = planMatch([expr.pattern], expr.where, env.scope, scoped);
      const inner = new Set([...env.scope, ...patternVariables(expr.pattern)]);
      const projection = compile(expr.projection, { ...env, scope: inner });
      return (row, ctx) => {
        const out: Value[] = [];
        for (const m of runMatch(program, row, ctx)) {
          if (out.length >= ctx.budget.maxListLength) ctx.checkLength(out.length + 1, "list");
          out.push(projection(m, ctx));
        }
        return out;
      };
    }
    case "ShortestPath":
      return compileShortestPath(expr);
  }
}

function compileShortestPath(expr: Extract<Expr, { kind: "ShortestPath" }>): Evaluator {
  const rel = expr.pattern.rels[0];
  const [a, b] = expr.pattern.nodes;
  if (rel === undefined || a === undefined || b === undefined) throw new Error("shortestPath needs one relationship");
  const spec = {
    types: rel.types,
    direction: rel.direction,
    min: rel.varLength?.min ?? 1,
    max: rel.varLength === null ? 1 : (rel.varLength.max ?? Infinity),
  };
  const from = nodeName(a);
  const to = nodeName(b);
  const all = expr.all;
  return (row, ctx) => {
    const s = row[from] ?? null;
    const e = row[to] ?? null;
    if (s === null || e === null) return all ? [] : null;
    if (!(s instanceof NodeRef) || !(e instanceof NodeRef)) {
      throw runtimeTypeError("InvalidArgumentType", `shortestPath endpoints must be nodes, got ${typeName(s)} and ${typeName(e)}`);
    }
    return all ? allShortestPaths(spec, s.id, e.id, ctx) : shortestPath(spec, s.id, e.id, ctx);
  };
}
