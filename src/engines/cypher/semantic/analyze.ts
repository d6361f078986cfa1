import type { Clause } from "../ast/clauses.js";
import type { Query, SingleQuery } from "../ast/query.js";
import { compileError, positionAt } from "../errors.js";
import { checkExpr, fail } from "./check-expression.js";
import type { ExprContext } from "./check-expression.js";
import { checkPatternPart } from "./check-patterns.js";
import { checkProjection } from "./check-projection.js";
import type { Scope, VariableInfo } from "./scope.js";
import { ANY, definitelyNot } from "./static-type.js";

/**
 * Compile-time checks: scoping, variable kinds, aggregation rules, clause composition and the
 * dialect's rejections. Throws the first CypherError found; nothing has run at that point.
 */
export function analyzeQuery(query: Query, source: string): void {
  analyze(query, source, new Map());
}

/** Returns the result columns (empty when the query does not return). */
function analyze(query: Query, source: string, outer: Scope): string[] {
  if (query.kind === "SingleQuery") return analyzeSingle(query, source, outer);
  if (query.all.some((a) => a) && query.all.some((a) => !a)) {
    throw compileError("InvalidClauseComposition", "UNION and UNION ALL cannot be mixed", positionAt(source, query.span.start));
  }
  const columns = query.parts.map((p) => analyzeSingle(p, source, outer));
  const first = columns[0] ?? [];
  for (const c of columns) {
    if ([...c].sort().join("\u0000") !== [...first].sort().join("\u0000")) {
      throw compileError("DifferentColumnsInUnion", "all parts of a UNION must return the same columns", positionAt(source, query.span.start));
    }
  }
  return first;
}

const UPDATING = new Set<Clause["kind"]>(["Create", "Merge", "Set", "Remove", "Delete", "CallSubquery", "CreateIndex", "DropIndex"]);

function analyzeSingle(query: SingleQuery, source: string, outer: Scope): string[] {
  let scope = new Map<string, VariableInfo>(outer);
  let columns: string[] = [];
  const base: Omit<ExprContext, "scope"> = { source, aggregates: false, inAggregate: false, inWhere: false };
  query.clauses.forEach((clause, i) => {
    const last = i === query.clauses.length - 1;
    if (clause.kind === "Return" && !last)
      throw compileError("InvalidClauseComposition", "RETURN must be the last clause", positionAt(source, clause.span.start));
    if (last && clause.kind !== "Return" && !UPDATING.has(clause.kind)) {
      throw compileError("InvalidClauseComposition", `a query cannot end with ${clause.kind.toUpperCase()}`, positionAt(source, clause.span.start));
    }
    const cx: ExprContext = { ...base, scope };
    scope = checkClause(clause, cx, scope);
    if (clause.kind === "Return") columns = clause.items.map((it) => it.alias ?? it.text).concat(clause.star ? [...cx.scope.keys()] : []);
  });
  return columns;
}

function checkClause(clause: Clause, cx: ExprContext, scope: Map<string, VariableInfo>): Map<string, VariableInfo> {
  switch (clause.kind) {
    case "Match": {
      const next = new Map(scope);
      const clauseVars = new Set<string>();
      for (const p of clause.patterns) checkPatternPart(p, "match", cx, next, clauseVars);
      if (clause.where !== null) {
        const t = checkExpr(clause.where, { ...cx, scope: next, inWhere: true });
        if (definitelyNot(t, "bool")) throw fail(cx, clause.where, "InvalidArgumentType", "WHERE expects a boolean");
      }
      return next;
    }
    case "Create": {
      const next = new Map(scope);
      const clauseVars = new Set<string>();
      for (const p of clause.patterns) checkPatternPart(p, "create", cx, next, clauseVars);
      return next;
    }
    case "Merge": {
      const next = new Map(scope);
      checkPatternPart(clause.pattern, "merge", cx, next, new Set());
      checkSetItems([...clause.onCreate, ...clause.onMatch], { ...cx, scope: next });
      return next;
    }
    case "Unwind": {
      const t = checkExpr(clause.expr, cx);
      if (scope.has(clause.variable)) throw fail(cx, clause, "VariableAlreadyBound", `variable \`${clause.variable}\` is already bound`);
      return new Map([...scope, [clause.variable, { kind: "value", type: t.t === "list" ? t.elem : ANY }]]);
    }
    case "With":
      return checkProjection(clause, clause.where, cx);
    case "Return":
      return checkProjection(clause, null, cx);
    case "Set":
      checkSetItems(clause.items, cx);
      return scope;
    case "Remove":
      for (const item of clause.items) {
        if (item.kind === "RemoveProperty") checkExpr(item.target, cx);
        else requireVariable(item.variable, item, cx);
      }
      return scope;
    case "Delete":
      for (const e of clause.exprs) {
        if (e.kind === "HasLabels") throw fail(cx, e, "InvalidDelete", "DELETE takes nodes, relationships or paths; use REMOVE for labels");
        const t = checkExpr(e, cx);
        if (definitelyNot(t, "node", "rel", "path")) throw fail(cx, e, "InvalidArgumentType", `cannot delete a ${t.t}`);
      }
      return scope;
    case "CallSubquery": {
      const body = clause.body;
      const first = body.kind === "SingleQuery" ? body.clauses[0] : body.parts[0]?.clauses[0];
      const columns = analyze(body, cx.source, first?.kind === "With" ? scope : new Map());
      const next = new Map(scope);
      for (const c of columns) {
        if (scope.has(c)) throw fail(cx, clause, "VariableAlreadyBound", `variable \`${c}\` returned by the subquery is already bound`);
        next.set(c, { kind: "value", type: ANY });
      }
      return next;
    }
    case "CreateIndex":
    case "DropIndex":
      return scope;
  }
}

function requireVariable(name: string, at: { span: { start: number } }, cx: ExprContext): void {
  if (!cx.scope.has(name)) throw fail(cx, at, "UndefinedVariable", `variable \`${name}\` is not defined`);
}

function checkSetItems(items: readonly Extract<Clause, { kind: "Set" }>["items"][number][], cx: ExprContext): void {
  for (const item of items) {
    switch (item.kind) {
      case "SetProperty":
        checkExpr(item.target.object, cx);
        checkExpr(item.value, cx);
        break;
      case "SetAllProperties":
        requireVariable(item.variable, item, cx);
        checkExpr(item.value, cx);
        break;
      case "SetLabels":
        requireVariable(item.variable, item, cx);
        break;
    }
  }
}
