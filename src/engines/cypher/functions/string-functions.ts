import { argumentError } from "../errors.js";
import { arg, argType } from "./function-def.js";
import type { FunctionDef, FunctionTable } from "./function-def.js";
import type { Value } from "../values/value.js";

function str(fn: string, v: Value): string {
  if (typeof v !== "string") throw argType(fn, v, "a string");
  return v;
}

function int(fn: string, v: Value): number {
  if (typeof v !== "bigint") throw argType(fn, v, "an integer");
  return Number(v);
}

function stringFn(name: string, f: (s: string) => string): FunctionDef {
  return { min: 1, max: 1, call: (args) => (arg(args, 0) === null ? null : f(str(name, arg(args, 0)))) };
}

export const stringFunctions: FunctionTable = {
  toupper: stringFn("toUpper", (s) => s.toUpperCase()),
  tolower: stringFn("toLower", (s) => s.toLowerCase()),
  trim: stringFn("trim", (s) => s.trim()),
  ltrim: stringFn("lTrim", (s) => s.trimStart()),
  rtrim: stringFn("rTrim", (s) => s.trimEnd()),
  replace: {
    min: 3,
    max: 3,
    call: (args) => {
      if (args.some((a) => a === null)) return null;
      return str("replace", arg(args, 0))
        .split(str("replace", arg(args, 1)))
        .join(str("replace", arg(args, 2)));
    },
  },
  substring: {
    min: 2,
    max: 3,
    call: (args) => {
      const s = arg(args, 0);
      if (s === null) return null;
      const text = str("substring", s);
      const start = int("substring", arg(args, 1));
      if (start < 0) throw argumentError("NumberOutOfRange", "substring() start must not be negative");
      if (args.length < 3) return text.slice(start);
      const len = int("substring", arg(args, 2));
      if (len < 0) throw argumentError("NumberOutOfRange", "substring() length must not be negative");
      return text.slice(start, start + len);
    },
  },
  left: {
    min: 2,
    max: 2,
    call: (args) => {
      const s = arg(args, 0);
      if (s === null) return null;
      if (arg(args, 1) === null) throw argType("left", null, "an integer");
      const n = int("left", arg(args, 1));
      if (n < 0) throw argumentError("NumberOutOfRange", "left() length must not be negative");
      return str("left", s).slice(0, n);
    },
  },
  right: {
    min: 2,
    max: 2,
    call: (args) => {
      const s = arg(args, 0);
      if (s === null) return null;
      if (arg(args, 1) === null) throw argType("right", null, "an integer");
      const n = int("right", arg(args, 1));
      if (n < 0) throw argumentError("NumberOutOfRange", "right() length must not be negative");
      const text = str("right", s);
      return n === 0 ? "" : text.slice(Math.max(0, text.length - n));
    },
  },
  split: {
    min: 2,
    max: 2,
    call: (args) => {
      if (args.some((a) => a === null)) return null;
      return str("split", arg(args, 0)).split(str("split", arg(args, 1)));
    },
  },
};
