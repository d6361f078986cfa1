import { checkedInt } from "../values/int64.js";
import { arg, argType, floatFn, numArg } from "./function-def.js";
import type { FunctionTable } from "./function-def.js";

export const mathFunctions: FunctionTable = {
  abs: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (typeof v === "bigint") return checkedInt(v < 0n ? -v : v);
      return Math.abs(numArg("abs", v));
    },
  },
  ceil: floatFn("ceil", Math.ceil),
  floor: floatFn("floor", Math.floor),
  round: {
    min: 1,
    max: 3,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      const x = numArg("round", v);
      const p = args.length > 1 ? numArg("round", arg(args, 1)) : 0;
      const f = 10 ** p;
      // Half away from zero, like Java's RoundingMode.HALF_UP used by Neo4j.
      const r = (Math.sign(x) * Math.round(Math.abs(x) * f)) / f;
      return Object.is(r, -0) ? 0 : r;
    },
  },
  sign: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (typeof v === "bigint") return v > 0n ? 1n : v < 0n ? -1n : 0n;
      return BigInt(Math.sign(numArg("sign", v)) || 0);
    },
  },
  sqrt: floatFn("sqrt", Math.sqrt),
  exp: floatFn("exp", Math.exp),
  log: floatFn("log", Math.log),
  log10: floatFn("log10", Math.log10),
  sin: floatFn("sin", Math.sin),
  cos: floatFn("cos", Math.cos),
  tan: floatFn("tan", Math.tan),
  cot: floatFn("cot", (x) => 1 / Math.tan(x)),
  asin: floatFn("asin", Math.asin),
  acos: floatFn("acos", Math.acos),
  atan: floatFn("atan", Math.atan),
  degrees: floatFn("degrees", (x) => (x * 180) / Math.PI),
  radians: floatFn("radians", (x) => (x * Math.PI) / 180),
  haversin: floatFn("haversin", (x) => (1 - Math.cos(x)) / 2),
  atan2: {
    min: 2,
    max: 2,
    call: (args) => {
      const a = arg(args, 0);
      const b = arg(args, 1);
      if (a === null || b === null) return null;
      return Math.atan2(numArg("atan2", a), numArg("atan2", b));
    },
  },
  pi: { min: 0, max: 0, call: () => Math.PI },
  e: { min: 0, max: 0, call: () => Math.E },
  rand: { min: 0, max: 0, call: () => Math.random(), volatile: true },
  isnan: {
    min: 1,
    max: 1,
    call: (args) => {
      const v = arg(args, 0);
      if (v === null) return null;
      if (typeof v === "bigint") return false;
      if (typeof v === "number") return Number.isNaN(v);
      throw argType("isNaN", v, "a number");
    },
  },
};
