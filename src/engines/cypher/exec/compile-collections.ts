import type { Expr } from "../ast/expressions.js";
import { runtimeTypeError } from "../errors.js";
import { NodeRef, RelRef, typeName } from "../values/value.js";
import type { CypherMap, Value } from "../values/value.js";
import type { Compile, CompileEnv } from "./compile-expression.js";
import type { Evaluator, Row } from "./context.js";
import { propertiesOf, propertyOf } from "./entity-access.js";
import { asBool } from "./logic.js";

type CollectionExpr = Extract<Expr, { kind: "List" | "Map" | "Index" | "Slice" | "ListComprehension" | "Quantifier" | "Reduce" | "MapProjection" }>;

function withVars(env: CompileEnv, ...names: string[]): CompileEnv {
  return { ...env, scope: new Set([...env.scope, ...names]) };
}

function listOrThrow(v: Value, what: string): Value[] | null {
  if (v === null) return null;
  if (!Array.isArray(v)) throw runtimeTypeError("InvalidArgumentType", `${what} expects a list, got ${typeName(v)}`);
  return v;
}

export function compileCollectionExpr(expr: CollectionExpr, env: CompileEnv, compile: Compile): Evaluator {
  const c = (e: Expr) => compile(e, env);
  switch (expr.kind) {
    case "List": {
      const items = expr.items.map(c);
      return (row, ctx) => ctx.sized(items.map((i) => i(row, ctx)));
    }
    case "Map": {
      const entries = expr.entries.map(([k, v]) => [k, c(v)] as const);
      return (row, ctx) => {
        const m: CypherMap = new Map();
        for (const [k, v] of entries) m.set(k, v(row, ctx));
        return m;
      };
    }
    case "Index": {
      const obj = c(expr.object);
      const index = c(expr.index);
      return (row, ctx) => indexValue(ctx.store, obj(row, ctx), index(row, ctx));
    }
    case "Slice": {
      const obj = c(expr.object);
      const from = expr.from === null ? null : c(expr.from);
      const to = expr.to === null ? null : c(expr.to);
      return (row, ctx) => {
        const list = listOrThrow(obj(row, ctx), "slice");
        const f = from === null ? 0n : from(row, ctx);
        const t = to === null ? null : to(row, ctx);
        if (list === null || f === null || (to !== null && t === null)) return null;
        const n = list.length;
        const norm = (v: Value): number => {
          if (typeof v !== "bigint") throw runtimeTypeError("InvalidArgumentType", `slice bounds must be integers`);
          const i = Number(v);
          return Math.min(n, Math.max(0, i < 0 ? n + i : i));
        };
        return list.slice(norm(f), t === null ? n : norm(t));
      };
    }
    case "ListComprehension": {
      const list = c(expr.list);
      const inner = withVars(env, expr.variable);
      const where = expr.where === null ? null : compile(expr.where, inner);
      const projection = expr.projection === null ? null : compile(expr.projection, inner);
      const variable = expr.variable;
      return (row, ctx) => {
        const items = listOrThrow(list(row, ctx), "list comprehension");
        if (items === null) return null;
        const scope: Row = { ...row };
        const out: Value[] = [];
        for (const item of items) {
          ctx.tick();
          scope[variable] = item;
          if (where !== null && where(scope, ctx) !== true) continue;
          out.push(projection === null ? item : projection(scope, ctx));
        }
        return out;
      };
    }
    case "Quantifier": {
      const list = c(expr.list);
      const where = expr.where === null ? () => true : compile(expr.where, withVars(env, expr.variable));
      const variable = expr.variable;
      const quantifier = expr.quantifier;
      return (row, ctx) => {
        const items = listOrThrow(list(row, ctx), quantifier);
        if (items === null) return null;
        const scope: Row = { ...row };
        let trues = 0;
        let nulls = 0;
        for (const item of items) {
          ctx.tick();
          scope[variable] = item;
          const r = asBool(where(scope, ctx), quantifier);
          if (r === true) trues++;
          else if (r === null) nulls++;
          if (quantifier === "any" && trues > 0) return true;
          if (quantifier === "none" && trues > 0) return false;
          if (quantifier === "single" && trues > 1) return false;
          if (quantifier === "all" && r === false) return false;
        }
        switch (quantifier) {
          case "all":
            return nulls > 0 ? null : true;
          case "any":
            return nulls > 0 ? null : false;
          case "none":
            return nulls > 0 ? null : true;
          case "single":
            return nulls > 0 ? null : trues === 1;
        }
      };
    }
    case "Reduce": {
      const init = c(expr.init);
      const list = c(expr.list);
      const body = compile(expr.body, withVars(env, expr.variable, expr.accumulator));
      const { variable, accumulator } = expr;
      return (row, ctx) => {
        const items = listOrThrow(list(row, ctx), "reduce");
        if (items === null) return null;
        const scope: Row = { ...row, [accumulator]: init(row, ctx) };
        for (const item of items) {
          ctx.tick();
          scope[variable] = item;
          scope[accumulator] = body(scope, ctx);
        }
        return scope[accumulator] ?? null;
      };
    }
    case "MapProjection":
      return compileMapProjection(expr, c);
  }
}

function indexValue(store: Parameters<typeof propertyOf>[0], obj: Value, index: Value): Value {
  if (obj === null || index === null) return null;
  if (Array.isArray(obj)) {
    if (typeof index !== "bigint") throw runtimeTypeError("InvalidArgumentType", `list index must be an integer, got ${typeName(index)}`);
    const i = Number(index);
    return obj[i < 0 ? obj.length + i : i] ?? null;
  }
  if (obj instanceof Map || obj instanceof NodeRef || obj instanceof RelRef) {
    if (typeof index !== "string") throw runtimeTypeError("MapElementAccessByNonString", `map key must be a string, got ${typeName(index)}`);
    return propertyOf(store, obj, index);
  }
  throw runtimeTypeError("InvalidArgumentType", `cannot index into ${typeName(obj)}`);
}

function compileMapProjection(expr: Extract<Expr, { kind: "MapProjection" }>, c: (e: Expr) => Evaluator): Evaluator {
  const variable = expr.variable;
  const items = expr.items.map((item) => (item.kind === "LiteralEntry" ? { ...item, eval: c(item.value) } : { ...item, eval: null }));
  return (row, ctx) => {
    const base = row[variable] ?? null;
    if (base === null) return null;
    if (!(base instanceof Map || base instanceof NodeRef || base instanceof RelRef)) {
      throw runtimeTypeError("InvalidArgumentType", `map projection on ${typeName(base)}`);
    }
    const out: CypherMap = new Map();
    for (const item of items) {
      switch (item.kind) {
        case "AllProperties":
          for (const [k, v] of base instanceof Map ? base : propertiesOf(ctx.store, base)) out.set(k, v);
          break;
        case "PropertySelector":
          out.set(item.key, propertyOf(ctx.store, base, item.key));
          break;
        case "VariableSelector":
          out.set(item.name, row[item.name] ?? null);
          break;
        case "LiteralEntry":
          out.set(item.key, item.eval?.(row, ctx) ?? null);
          break;
      }
    }
    return out;
  };
}
