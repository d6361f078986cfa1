import { argumentError } from "../errors.js";
import { checkedInt } from "../values/int64.js";
import { PathValue, typeName } from "../values/value.js";
import type { Value } from "../values/value.js";
import { arg, argType } from "./function-def.js";
import type { FunctionTable } from "./function-def.js";

function list(fn: string, v: Value): Value[] {
  if (!Array.isArray(v)) throw argType(fn, v, "a list");
  return v;
}

function intArg(fn: string, v: Value): bigint {
  if (typeof v !== "bigint") throw argumentError("InvalidArgumentType", `${fn}() expects an integer, got ${typeName(v)}`);
  return v;
}

export const listFunctions: FunctionTable = {
  size: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (typeof v === "string") return BigInt([...v].length);
      if (Array.isArray(v)) return BigInt(v.length);
      if (v instanceof Map) return BigInt(v.size);
      throw argType("size", v, "a list or string");
    },
  },
  head: { min: 1, max: 1, call: (args) => (arg(args, 0) === null ? null : (list("head", arg(args, 0))[0] ?? null)) },
  last: { min: 1, max: 1, call: (args) => (arg(args, 0) === null ? null : (list("last", arg(args, 0)).at(-1) ?? null)) },
  tail: { min: 1, max: 1, call: (args) => (arg(args, 0) === null ? null : list("tail", arg(args, 0)).slice(1)) },
  reverse: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (typeof v === "string") return [...v].reverse().join("");
      return [...list("reverse", v)].reverse();
    },
  },
  range: {
    min: 2,
    max: 3,
    call: (args, ctx) => {
      const start = intArg("range", arg(args, 0));
      const end = intArg("range", arg(args, 1));
      const step = args.length > 2 ? intArg("range", arg(args, 2)) : 1n;
      if (step === 0n) throw argumentError("NumberOutOfRange", "range() step must not be zero");
      // The length is known up front: refuse an oversized range before building any of it.
      const span = step > 0n ? end - start : start - end;
      const length = span < 0n ? 0n : span / (step > 0n ? step : -step) + 1n;
      ctx.checkLength(length > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(length), "list");
      const out: Value[] = [];
      for (let i = start; step > 0n ? i <= end : i >= end; i = checkedInt(i + step)) {
        ctx.tick();
        out.push(i);
      }
      return out;
    },
  },
  coalesce: { min: 1, max: Infinity, call: (args) => args.find((a) => a !== null) ?? null },
  isempty: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (typeof v === "string") return v.length === 0;
      if (Array.isArray(v)) return v.length === 0;
      if (v instanceof Map) return v.size === 0;
      throw argType("isEmpty", v, "a list, string or map");
    },
  },
  length: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (v instanceof PathValue) return BigInt(v.rels.length);
      throw argType("length", v, "a path");
    },
  },
};
