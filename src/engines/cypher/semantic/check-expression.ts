import type { Expr } from "../ast/expressions.js";
import type { PatternPart } from "../ast/patterns.js";
import { CypherError, compileError, positionAt } from "../errors.js";
import { AGGREGATES, lookupFunction } from "../functions/function-registry.js";
import type { Scope, VariableInfo } from "./scope.js";
import { functionResultType } from "./function-types.js";
import { ANY, BOOL, FLOAT, INT, MAP, NULL, PATH, STRING, definitelyNot, isNumeric, join, listOf } from "./static-type.js";
import type { StaticType } from "./static-type.js";

export interface ExprContext {
  readonly source: string;
  readonly scope: Scope;
  /** Aggregates are legal here (WITH / RETURN items and their ORDER BY). */
  readonly aggregates: boolean;
  /** Inside an aggregate's arguments: a second aggregate is nested. */
  readonly inAggregate: boolean;
  /** Pattern predicates are only legal in WHERE. */
  readonly inWhere: boolean;
  /** True only for WITH / RETURN items: the one place shortestPath() is accepted in our dialect. */
  readonly projection?: boolean;
}

export function fail(cx: ExprContext, e: { span: { start: number } }, detail: string, reason: string): CypherError {
  return compileError(detail, reason, positionAt(cx.source, e.span.start));
}

function typeFail(cx: ExprContext, e: Expr, reason: string): CypherError {
  return fail(cx, e, "InvalidArgumentType", reason);
}

function requireBool(cx: ExprContext, e: Expr, what: string): void {
  const t = checkExpr(e, cx);
  if (definitelyNot(t, "bool")) throw typeFail(cx, e, `${what} expects a boolean, got ${t.t}`);
}

function withLocals(cx: ExprContext, names: readonly string[], types: readonly StaticType[] = []): ExprContext {
  const scope = new Map(cx.scope);
  names.forEach((n, i) => scope.set(n, { kind: "value", type: types[i] ?? ANY }));
  return { ...cx, scope, aggregates: false };
}

/** Checks one expression and returns what is statically known about its type. */
export function checkExpr(e: Expr, cx: ExprContext): StaticType {
  switch (e.kind) {
    case "Literal":
      return literalType(e.value);
    case "Parameter":
      return ANY;
    case "Variable": {
      const info = cx.scope.get(e.name);
      if (info === undefined) throw fail(cx, e, "UndefinedVariable", `variable \`${e.name}\` is not defined`);
      return info.type;
    }
    case "List": {
      let elem: StaticType = NULL;
      for (const i of e.items) elem = join(elem, checkExpr(i, cx));
      return listOf(e.items.length === 0 ? ANY : elem);
    }
    case "Map":
      for (const [, v] of e.entries) checkExpr(v, cx);
      return MAP;
    case "Property": {
      const t = checkExpr(e.object, cx);
      if (t.t === "path") throw typeFail(cx, e, `cannot read property ${e.key} of a path`);
      if (definitelyNot(t, "map", "node", "rel")) {
        throw new CypherError(
          "TypeError",
          "compile time",
          "InvalidArgumentType",
          `cannot read property ${e.key} of ${t.t}`,
          positionAt(cx.source, e.span.start),
        );
      }
      return ANY;
    }
    case "Index": {
      const t = checkExpr(e.object, cx);
      const i = checkExpr(e.index, cx);
      if (t.t === "list" && definitelyNot(i, "int")) {
        throw new CypherError(
          "TypeError",
          "compile time",
          "InvalidArgumentType",
          `list index must be an integer, got ${i.t}`,
          positionAt(cx.source, e.span.start),
        );
      }
      if (t.t === "map" && definitelyNot(i, "string")) throw fail(cx, e, "MapElementAccessByNonString", "map keys are strings");
      return t.t === "list" ? t.elem : ANY;
    }
    case "Slice": {
      const t = checkExpr(e.object, cx);
      if (e.from) checkExpr(e.from, cx);
      if (e.to) checkExpr(e.to, cx);
      return t.t === "list" ? t : ANY;
    }
    case "Unary": {
      if (e.op === "not") {
        requireBool(cx, e.operand, "NOT");
        return BOOL;
      }
      const t = checkExpr(e.operand, cx);
      if (definitelyNot(t, "int", "float")) throw typeFail(cx, e, `unary ${e.op} expects a number, got ${t.t}`);
      return t;
    }
    case "Binary":
      return checkBinary(e, cx);
    case "Comparison":
      for (const o of e.operands) checkExpr(o, cx);
      return BOOL;
    case "IsNull":
      checkExpr(e.operand, cx);
      return BOOL;
    case "HasLabels": {
      const t = checkExpr(e.operand, cx);
      if (definitelyNot(t, "node")) throw typeFail(cx, e, `label predicate on ${t.t}`);
      return BOOL;
    }
    case "FunctionCall":
      return checkFunction(e, cx);
    case "Case": {
      if (e.subject) checkExpr(e.subject, cx);
      let t: StaticType = NULL;
      for (const [w, r] of e.whens) {
        checkExpr(w, cx);
        t = join(t, checkExpr(r, cx));
      }
      if (e.otherwise) t = join(t, checkExpr(e.otherwise, cx));
      return t;
    }
    case "ListComprehension": {
      const lt = checkExpr(e.list, cx);
      const inner = withLocals(cx, [e.variable], [lt.t === "list" ? lt.elem : ANY]);
      if (e.where) requireBool(inner, e.where, "WHERE");
      const p = e.projection ? checkExpr(e.projection, inner) : lt.t === "list" ? lt.elem : ANY;
      return listOf(p);
    }
    case "Quantifier": {
      const lt = checkExpr(e.list, cx);
      const inner = withLocals(cx, [e.variable], [lt.t === "list" ? lt.elem : ANY]);
      if (e.where) requireBool(inner, e.where, e.quantifier);
      return BOOL;
    }
    case "Reduce": {
      checkExpr(e.init, cx);
      const lt = checkExpr(e.list, cx);
      checkExpr(e.body, withLocals(cx, [e.accumulator, e.variable], [ANY, lt.t === "list" ? lt.elem : ANY]));
      return ANY;
    }
    case "PatternComprehension": {
      const scope = new Map(cx.scope);
      declarePatternLocals(e.pattern, scope, cx);
      const inner: ExprContext = { ...cx, scope, aggregates: false, inWhere: true };
      if (e.where) requireBool(inner, e.where, "WHERE");
      return listOf(checkExpr(e.projection, { ...inner, inWhere: cx.inWhere }));
    }
    case "PatternPredicate":
      if (!cx.inWhere) throw fail(cx, e, "UnexpectedSyntax", "pattern expressions are only allowed in WHERE; use a pattern comprehension");
      checkPatternPredicate(e.pattern, cx);
      return BOOL;
    case "MapProjection": {
      const v = cx.scope.get(e.variable);
      if (v === undefined) throw fail(cx, e, "UndefinedVariable", `variable \`${e.variable}\` is not defined`);
      for (const item of e.items) {
        if (item.kind === "VariableSelector" && !cx.scope.has(item.name)) {
          throw fail(cx, e, "UndefinedVariable", `variable \`${item.name}\` is not defined`);
        }
        if (item.kind === "LiteralEntry") checkExpr(item.value, cx);
      }
      return MAP;
    }
    case "ShortestPath":
      checkShortestPath(e, cx);
      return e.all ? listOf(PATH) : PATH;
  }
}

function literalType(v: unknown): StaticType {
  if (v === null) return NULL;
  switch (typeof v) {
    case "boolean":
      return BOOL;
    case "bigint":
      return INT;
    case "number":
      return FLOAT;
    case "string":
      return STRING;
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      return ANY;
  }
  return ANY;
}

function checkBinary(e: Extract<Expr, { kind: "Binary" }>, cx: ExprContext): StaticType {
  if (e.op === "and" || e.op === "or" || e.op === "xor") {
    requireBool(cx, e.left, e.op.toUpperCase());
    requireBool(cx, e.right, e.op.toUpperCase());
    return BOOL;
  }
  const l = checkExpr(e.left, cx);
  const r = checkExpr(e.right, cx);
  switch (e.op) {
    case "in":
      if (definitelyNot(r, "list")) throw typeFail(cx, e, `IN expects a list, got ${r.t}`);
      return BOOL;
    case "=~":
    case "starts with":
    case "ends with":
    case "contains":
      return BOOL;
    case "+":
      if (l.t === "list" || r.t === "list") return l.t === "list" ? l : r;
      if (l.t === "any" || r.t === "any" || l.t === "null" || r.t === "null") return ANY;
      if (isNumeric(l) && isNumeric(r)) return l.t === "int" && r.t === "int" ? INT : FLOAT;
      if ((l.t === "string" && (r.t === "string" || isNumeric(r))) || (r.t === "string" && isNumeric(l))) return STRING;
      throw typeFail(cx, e, `cannot add ${l.t} and ${r.t}`);
    case "-":
    case "*":
    case "/":
    case "%":
    case "^":
      if (definitelyNot(l, "int", "float") || definitelyNot(r, "int", "float")) {
        throw typeFail(cx, e, `cannot apply ${e.op} to ${l.t} and ${r.t}`);
      }
      if (e.op === "^") return FLOAT;
      return l.t === "int" && r.t === "int" ? INT : l.t === "float" || r.t === "float" ? FLOAT : ANY;
  }
}

function checkFunction(e: Extract<Expr, { kind: "FunctionCall" }>, cx: ExprContext): StaticType {
  if (e.name === "exists") {
    throw fail(cx, e, "UnsupportedExists", "exists() is not supported; use a pattern predicate or IS NOT NULL");
  }
  const agg = AGGREGATES[e.name];
  if (agg !== undefined && Object.hasOwn(AGGREGATES, e.name)) {
    if (cx.inAggregate) throw fail(cx, e, "NestedAggregation", `aggregate ${e.name}() cannot be nested in another aggregate`);
    if (!cx.aggregates) throw fail(cx, e, "InvalidAggregation", `aggregate ${e.name}() is not allowed here`);
    if (!e.star && (e.args.length < agg.min || e.args.length > agg.max)) {
      throw fail(cx, e, "InvalidNumberOfArguments", `${e.name}() takes ${agg.min} argument(s)`);
    }
    const inner = { ...cx, inAggregate: true };
    const argTypes = e.args.map((a) => checkExpr(a, inner));
    if (e.args.some(isVolatile)) throw fail(cx, e, "NonConstantExpression", `${e.name}() argument must be deterministic`);
    return functionResultType(e.name, argTypes);
  }
  const def = lookupFunction(e.name);
  if (def === undefined) throw fail(cx, e, "UnknownFunction", `unknown function ${e.name}()`);
  if (e.distinct) throw fail(cx, e, "InvalidAggregation", `DISTINCT is only allowed in aggregate functions`);
  if (e.args.length < def.min || e.args.length > def.max) {
    throw fail(cx, e, "InvalidNumberOfArguments", `${e.name}() takes ${def.min}..${def.max} arguments, got ${e.args.length}`);
  }
  const argTypes = e.args.map((a) => checkExpr(a, cx));
  const bad = badArgument(e.name, argTypes);
  if (bad !== null) throw typeFail(cx, e, `${e.name}() cannot take ${bad}`);
  return functionResultType(e.name, argTypes);
}

function isVolatile(e: Expr): boolean {
  return e.kind === "FunctionCall" && lookupFunction(e.name)?.volatile === true;
}

/** Arguments that can never be valid, detected at compile time as Neo4j does. */
function badArgument(name: string, args: readonly StaticType[]): string | null {
  const a = args[0];
  if (a === undefined) return null;
  const graphOnly: Record<string, StaticType["t"][]> = {
    type: ["rel"],
    length: ["path"],
    labels: ["node"],
    startnode: ["rel"],
    endnode: ["rel"],
    nodes: ["path"],
    relationships: ["path"],
    properties: ["map", "node", "rel"],
    keys: ["map", "node", "rel"],
    size: ["list", "string"],
  };
  const allowed = graphOnly[name];
  if (allowed !== undefined && definitelyNot(a, ...allowed)) return a.t;
  return null;
}

/**
 * Our shortestPath rules (shared with FalkorDB): only in WITH / RETURN, one directed relationship
 * pattern between two bound nodes, at most one minimum hop, and no property filters.
 */
function checkShortestPath(e: Extract<Expr, { kind: "ShortestPath" }>, cx: ExprContext): void {
  const name = e.all ? "allShortestPaths" : "shortestPath";
  if (cx.projection !== true) throw fail(cx, e, "UnsupportedShortestPath", `${name}() is only allowed in RETURN or WITH items`);
  const rel = e.pattern.rels[0];
  if (rel === undefined || e.pattern.rels.length !== 1) throw fail(cx, e, "InvalidShortestPathPattern", `${name}() takes exactly one relationship pattern`);
  if (rel.direction === "both") throw fail(cx, e, "RequiresDirectedRelationship", `${name}() needs a directed relationship`);
  const min = rel.varLength?.min ?? 1;
  if (min > 1) throw fail(cx, e, "InvalidShortestPathPattern", `${name}() supports a minimum of 0 or 1 hops`);
  if (rel.properties !== null || e.pattern.nodes.some((n) => n.properties !== null || n.labels.length > 0)) {
    throw fail(cx, e, "InvalidShortestPathPattern", `${name}() does not accept property or label filters`);
  }
  for (const n of e.pattern.nodes) {
    const info = n.variable === null ? undefined : cx.scope.get(n.variable);
    if (info === undefined) throw fail(cx, n, "UnboundShortestPathEndpoint", `${name}() endpoints must be variables bound earlier`);
  }
}

function checkPatternPredicate(p: PatternPart, cx: ExprContext): void {
  const check = (name: string | null, el: { span: { start: number } }) => {
    if (name !== null && !cx.scope.has(name))
      throw fail(cx, el, "UndefinedVariable", `variable \`${name}\` is not defined; pattern predicates cannot introduce variables`);
  };
  for (const n of p.nodes) {
    check(n.variable, n);
    if (n.properties) checkExpr(n.properties, cx);
  }
  for (const r of p.rels) {
    check(r.variable, r);
    if (r.properties) checkExpr(r.properties, cx);
  }
}

function declarePatternLocals(p: PatternPart, scope: Map<string, VariableInfo>, cx: ExprContext): void {
  for (const n of p.nodes) {
    if (n.properties) checkExpr(n.properties, { ...cx, scope });
    if (n.variable !== null && !scope.has(n.variable)) scope.set(n.variable, { kind: "node", type: { t: "node" } });
  }
  for (const r of p.rels) {
    if (r.properties) checkExpr(r.properties, { ...cx, scope });
    if (r.variable !== null && !scope.has(r.variable)) {
      scope.set(r.variable, r.varLength === null ? { kind: "rel", type: { t: "rel" } } : { kind: "relList", type: listOf({ t: "rel" }) });
    }
  }
  if (p.pathVariable !== null) scope.set(p.pathVariable, { kind: "path", type: PATH });
}
