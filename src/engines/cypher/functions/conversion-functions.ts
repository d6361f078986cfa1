import { formatFloat } from "../values/format-float.js";
import { INT64_MAX, INT64_MIN } from "../values/int64.js";
import { arg, argValue as argType } from "./function-def.js";
import type { FunctionTable } from "./function-def.js";
import type { Value } from "../values/value.js";

function toStringValue(v: Value): Value {
  if (v === null) return null;
  switch (typeof v) {
    case "string":
      return v;
    case "bigint":
      return v.toString();
    case "number":
      return formatFloat(v);
    case "boolean":
      return v ? "true" : "false";
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      throw argType("toString", v, "a string, number or boolean");
  }
}

function floatToInt(f: number): bigint | null {
  if (!Number.isFinite(f)) return null;
  const i = BigInt(Math.trunc(f));
  return i > INT64_MAX || i < INT64_MIN ? null : i;
}

function toIntegerValue(v: Value, fn = "toInteger"): Value {
  if (v === null) return null;
  switch (typeof v) {
    case "bigint":
      return v;
    case "number":
      return floatToInt(v);
    case "boolean":
      return v ? 1n : 0n;
    case "string": {
      const s = v.trim();
      if (/^[-+]?\d+$/.test(s)) {
        const i = BigInt(s);
        return i > INT64_MAX || i < INT64_MIN ? null : i;
      }
      if (/^[-+]?0x[0-9a-f]+$/i.test(s)) return BigInt(s.replace(/^([-+]?)0x/i, "$10x"));
      const f = Number(s);
      return s === "" || Number.isNaN(f) ? null : floatToInt(f);
    }
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      throw argType(fn, v, "a string, number or boolean");
  }
}

function toFloatValue(v: Value, fn = "toFloat"): Value {
  if (v === null) return null;
  switch (typeof v) {
    case "bigint":
      return Number(v);
    case "number":
      return v;
    case "string": {
      const s = v.trim();
      if (s === "" || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$|^[-+]?(NaN|Infinity)$/i.test(s)) return null;
      return Number(s);
    }
    case "boolean":
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      throw argType(fn, v, "a string or number");
  }
}

function toBooleanValue(v: Value, fn = "toBoolean"): Value {
  if (v === null) return null;
  if (typeof v === "boolean") return v;
  if (typeof v === "string") {
    const s = v.trim().toLowerCase();
    return s === "true" ? true : s === "false" ? false : null;
  }
  if (typeof v === "bigint") return v !== 0n;
  throw argType(fn, v, "a string, integer or boolean");
}

/** The `...OrNull` variants return null instead of failing on unsupported input types. */
function orNull(f: (v: Value) => Value): (args: readonly Value[]) => Value {
  return (args) => {
    try {
      return f(arg(args, 0));
    } catch {
      // The null is the documented answer of the ...OrNull variants for input they cannot convert.
      return null;
    }
  };
}

export const conversionFunctions: FunctionTable = {
  tostring: { min: 1, max: 1, call: (args) => toStringValue(arg(args, 0)) },
  tointeger: { min: 1, max: 1, call: (args) => toIntegerValue(arg(args, 0)) },
  tofloat: { min: 1, max: 1, call: (args) => toFloatValue(arg(args, 0)) },
  toboolean: { min: 1, max: 1, call: (args) => toBooleanValue(arg(args, 0)) },
  tostringornull: { min: 1, max: 1, call: orNull(toStringValue) },
  tointegerornull: { min: 1, max: 1, call: orNull((v) => toIntegerValue(v)) },
  tofloatornull: { min: 1, max: 1, call: orNull((v) => toFloatValue(v)) },
  tobooleanornull: { min: 1, max: 1, call: orNull((v) => toBooleanValue(v)) },
};
