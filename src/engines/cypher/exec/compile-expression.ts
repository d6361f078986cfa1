import type { Expr } from "../ast/expressions.js";
import { CypherError, runtimeTypeError } from "../errors.js";
import { lookupFunction } from "../functions/function-registry.js";
import { typeName } from "../values/value.js";
import type { Value } from "../values/value.js";
import { add, divide, modulo, multiply, negate, power, subtract } from "./arithmetic.js";
import { compileCollectionExpr } from "./compile-collections.js";
import { compilePatternExpr } from "./compile-pattern-expressions.js";
import type { Evaluator } from "./context.js";
import { propertyOf } from "./entity-access.js";
import { and3, asBool, compareOp, inList, or3, xor3 } from "./logic.js";
import { regexMatch } from "./regex-match.js";
import { hasLabels } from "./node-labels.js";

/** What the compiler needs besides the expression: bound variables and aggregate result slots. */
export interface CompileEnv {
  readonly scope: ReadonlySet<string>;
  /** Aggregate call nodes already computed by the aggregation operator, read from these row keys. */
  readonly aggregates: ReadonlyMap<Expr, string> | null;
}

export type Compile = (e: Expr, env: CompileEnv) => Evaluator;

const BINARY: Record<string, (a: Value, b: Value) => Value> = {
  "+": add,
  "-": subtract,
  "*": multiply,
  "/": divide,
  "%": modulo,
  "^": power,
};

/** AST expression -> closure over (row, ctx). Compiling once per query keeps per-row work small. */
export function compileExpr(expr: Expr, env: CompileEnv): Evaluator {
  const c = (e: Expr) => compileExpr(e, env);
  switch (expr.kind) {
    case "Literal": {
      const v = expr.value;
      return () => v;
    }
    case "Parameter": {
      const name = expr.name;
      return (_row, ctx) => {
        const v = ctx.params.get(name);
        if (v === undefined) throw new CypherError("ParameterMissing", "runtime", "MissingParameter", `parameter $${name} was not provided`);
        return v;
      };
    }
    case "Variable": {
      const name = expr.name;
      return (row) => row[name] ?? null;
    }
    case "Property": {
      const obj = c(expr.object);
      const key = expr.key;
      return (row, ctx) => propertyOf(ctx.store, obj(row, ctx), key);
    }
    case "Unary": {
      const operand = c(expr.operand);
      if (expr.op === "not") {
        return (row, ctx) => {
          const v = asBool(operand(row, ctx), "NOT");
          return v === null ? null : !v;
        };
      }
      if (expr.op === "-") return (row, ctx) => negate(operand(row, ctx));
      return (row, ctx) => {
        const v = operand(row, ctx);
        if (v === null || typeof v === "bigint" || typeof v === "number") return v;
        throw runtimeTypeError("InvalidArgumentType", `cannot apply unary + to ${typeName(v)}`);
      };
    }
    case "Binary":
      return compileBinary(expr.op, c(expr.left), c(expr.right));
    case "Comparison": {
      const operands = expr.operands.map(c);
      const ops = expr.ops;
      return (row, ctx) => {
        let result: boolean | null = true;
        let left = operands[0]?.(row, ctx) ?? null;
        for (let i = 0; i < ops.length; i++) {
          const right = operands[i + 1]?.(row, ctx) ?? null;
          result = and3(result, compareOp(ops[i] ?? "=", left, right));
          left = right;
        }
        return result;
      };
    }
    case "IsNull": {
      const operand = c(expr.operand);
      const negated = expr.negated;
      return (row, ctx) => (operand(row, ctx) === null) !== negated;
    }
    case "HasLabels": {
      const operand = c(expr.operand);
      const labels = expr.labels;
      return (row, ctx) => hasLabels(ctx.store, operand(row, ctx), labels);
    }
    case "FunctionCall":
      return compileFunction(expr, env);
    case "Case":
      return compileCase(expr, c);
    case "List":
    case "Map":
    case "Index":
    case "Slice":
    case "ListComprehension":
    case "Quantifier":
    case "Reduce":
    case "MapProjection":
      return compileCollectionExpr(expr, env, compileExpr);
    case "PatternComprehension":
    case "PatternPredicate":
    case "ShortestPath":
      return compilePatternExpr(expr, env, compileExpr);
  }
}

function compileBinary(op: string, l: Evaluator, r: Evaluator): Evaluator {
  switch (op) {
    case "and":
      return (row, ctx) => {
        const a = asBool(l(row, ctx), "AND");
        if (a === false) return false;
        return and3(a, asBool(r(row, ctx), "AND"));
      };
    case "or":
      return (row, ctx) => {
        const a = asBool(l(row, ctx), "OR");
        if (a === true) return true;
        return or3(a, asBool(r(row, ctx), "OR"));
      };
    case "xor":
      return (row, ctx) => xor3(asBool(l(row, ctx), "XOR"), asBool(r(row, ctx), "XOR"));
    case "in":
      return (row, ctx) => inList(l(row, ctx), r(row, ctx));
    case "=~":
      return (row, ctx) => regexMatch(l(row, ctx), r(row, ctx), ctx);
    case "starts with":
    case "ends with":
    case "contains":
      return (row, ctx) => {
        const a = l(row, ctx);
        const b = r(row, ctx);
        if (typeof a !== "string" || typeof b !== "string") return null;
        return op === "contains" ? a.includes(b) : op === "starts with" ? a.startsWith(b) : a.endsWith(b);
      };
    default: {
      const f = BINARY[op];
      if (f === undefined) throw new Error(`unknown operator ${op}`);
      // String and list concatenation are where a query can double its data per step.
      if (op === "+") return (row, ctx) => ctx.sized(add(l(row, ctx), r(row, ctx)));
      return (row, ctx) => f(l(row, ctx), r(row, ctx));
    }
  }
}

function compileFunction(expr: Extract<Expr, { kind: "FunctionCall" }>, env: CompileEnv): Evaluator {
  const slot = env.aggregates?.get(expr);
  if (slot !== undefined) return (row) => row[slot] ?? null;
  const def = lookupFunction(expr.name);
  if (def === undefined) throw new CypherError("SyntaxError", "compile time", "UnknownFunction", `unknown function ${expr.name}()`);
  const args = expr.args.map((a) => compileExpr(a, env));
  const call = def.call;
  if (args.length === 1) {
    const a0 = args[0] as Evaluator;
    return (row, ctx) => ctx.sized(call([a0(row, ctx)], ctx));
  }
  return (row, ctx) =>
    ctx.sized(
      call(
        args.map((a) => a(row, ctx)),
        ctx,
      ),
    );
}

function compileCase(expr: Extract<Expr, { kind: "Case" }>, c: (e: Expr) => Evaluator): Evaluator {
  const subject = expr.subject === null ? null : c(expr.subject);
  const whens = expr.whens.map(([w, t]) => [c(w), c(t)] as const);
  const otherwise = expr.otherwise === null ? null : c(expr.otherwise);
  return (row, ctx) => {
    const s = subject === null ? undefined : subject(row, ctx);
    for (const [w, t] of whens) {
      const hit = s === undefined ? w(row, ctx) === true : compareOp("=", s, w(row, ctx)) === true;
      if (hit) return t(row, ctx);
    }
    return otherwise === null ? null : otherwise(row, ctx);
  };
}
