import { runtimeTypeError } from "../errors.js";
import type { ExecContext } from "../exec/context.js";
import { typeName } from "../values/value.js";
import type { Value } from "../values/value.js";

export interface FunctionDef {
  readonly min: number;
  readonly max: number;
  readonly call: (args: readonly Value[], ctx: ExecContext) => Value;
  /** Functions like rand() must not be constant-folded. */
  readonly volatile?: boolean;
}

export type FunctionTable = Record<string, FunctionDef>;

export function argType(fn: string, v: Value, expected: string): Error {
  return runtimeTypeError("InvalidArgumentType", `${fn}() expects ${expected}, got ${typeName(v)}`);
}

/** Conversion and graph accessors report a wrong input type as InvalidArgumentValue, like the TCK. */
export function argValue(fn: string, v: Value, expected: string): Error {
  return runtimeTypeError("InvalidArgumentValue", `${fn}() expects ${expected}, got ${typeName(v)}`);
}

export function arg(args: readonly Value[], i: number): Value {
  return args[i] ?? null;
}

export function numArg(fn: string, v: Value): number {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return v;
  throw argType(fn, v, "a number");
}

/** A one-argument numeric function returning FLOAT; null in, null out. */
export function floatFn(name: string, f: (x: number) => number): FunctionDef {
  return {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      return v === null ? null : f(numArg(name, v));
    },
  };
}
