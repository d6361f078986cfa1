import type { Expr } from "../ast/expressions.js";
import type { PatternPart } from "../ast/patterns.js";

/** Variables an expression reads from its row (comprehension and reduce variables excluded). */
export function freeVariables(expr: Expr, out: Set<string> = new Set(), local: ReadonlySet<string> = new Set()): Set<string> {
  const visit = (e: Expr, l: ReadonlySet<string>) => freeVariables(e, out, l);
  const withLocal = (...names: string[]) => new Set([...local, ...names]);
  switch (expr.kind) {
    case "Literal":
    case "Parameter":
      break;
    case "Variable":
      if (!local.has(expr.name)) out.add(expr.name);
      break;
    case "List":
      for (const i of expr.items) visit(i, local);
      break;
    case "Map":
      for (const [, v] of expr.entries) visit(v, local);
      break;
    case "Property":
      visit(expr.object, local);
      break;
    case "Index":
      visit(expr.object, local);
      visit(expr.index, local);
      break;
    case "Slice":
      visit(expr.object, local);
      if (expr.from) visit(expr.from, local);
      if (expr.to) visit(expr.to, local);
      break;
    case "Unary":
      visit(expr.operand, local);
      break;
    case "Binary":
      visit(expr.left, local);
      visit(expr.right, local);
      break;
    case "Comparison":
      for (const o of expr.operands) visit(o, local);
      break;
    case "IsNull":
    case "HasLabels":
      visit(expr.operand, local);
      break;
    case "FunctionCall":
      for (const a of expr.args) visit(a, local);
      break;
    case "Case":
      if (expr.subject) visit(expr.subject, local);
      for (const [w, t] of expr.whens) {
        visit(w, local);
        visit(t, local);
      }
      if (expr.otherwise) visit(expr.otherwise, local);
      break;
    case "ListComprehension": {
      visit(expr.list, local);
      const inner = withLocal(expr.variable);
      if (expr.where) visit(expr.where, inner);
      if (expr.projection) visit(expr.projection, inner);
      break;
    }
    case "Quantifier":
      visit(expr.list, local);
      if (expr.where) visit(expr.where, withLocal(expr.variable));
      break;
    case "Reduce":
      visit(expr.init, local);
      visit(expr.list, local);
      visit(expr.body, withLocal(expr.variable, expr.accumulator));
      break;
    case "PatternComprehension": {
      const names = patternVariables(expr.pattern);
      const inner = withLocal(...names);
      patternFreeVariables(expr.pattern, out, local);
      if (expr.where) visit(expr.where, inner);
      visit(expr.projection, inner);
      break;
    }
    case "PatternPredicate":
    case "ShortestPath":
      patternFreeVariables(expr.pattern, out, local);
      break;
    case "MapProjection":
      if (!local.has(expr.variable)) out.add(expr.variable);
      for (const item of expr.items) {
        if (item.kind === "VariableSelector" && !local.has(item.name)) out.add(item.name);
        if (item.kind === "LiteralEntry") visit(item.value, local);
      }
      break;
  }
  return out;
}

/** Named variables in a pattern (nodes, relationships, path). */
export function patternVariables(pattern: PatternPart): string[] {
  const names: string[] = [];
  if (pattern.pathVariable !== null) names.push(pattern.pathVariable);
  for (const n of pattern.nodes) if (n.variable !== null) names.push(n.variable);
  for (const r of pattern.rels) if (r.variable !== null) names.push(r.variable);
  return names;
}

/**
 * A pattern inside an expression reads the outer variables it mentions: node and relationship
 * names (they are joined on when bound) and property expressions.
 */
function patternFreeVariables(pattern: PatternPart, out: Set<string>, local: ReadonlySet<string>): void {
  for (const name of patternVariables(pattern)) if (!local.has(name) && name !== pattern.pathVariable) out.add(name);
  for (const n of pattern.nodes) if (n.properties) freeVariables(n.properties, out, local);
  for (const r of pattern.rels) if (r.properties) freeVariables(r.properties, out, local);
}
