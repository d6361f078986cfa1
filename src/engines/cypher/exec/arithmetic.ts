import { CypherError, runtimeTypeError } from "../errors.js";
import { formatFloat } from "../values/format-float.js";
import { checkedInt } from "../values/int64.js";
import { typeName } from "../values/value.js";
import type { Value } from "../values/value.js";

function typeErr(op: string, a: Value, b: Value): CypherError {
  return runtimeTypeError("InvalidArgumentType", `cannot apply ${op} to ${typeName(a)} and ${typeName(b)}`);
}

function isNum(v: Value): v is bigint | number {
  return typeof v === "bigint" || typeof v === "number";
}

export function add(a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (typeof a === "bigint" && typeof b === "bigint") return checkedInt(a + b);
  if (isNum(a) && isNum(b)) return Number(a) + Number(b);
  if (Array.isArray(a)) return Array.isArray(b) ? [...a, ...b] : [...a, b];
  if (Array.isArray(b)) return [a, ...b];
  if (typeof a === "string" && (typeof b === "string" || isNum(b))) return a + numText(b);
  if (typeof b === "string" && isNum(a)) return numText(a) + b;
  throw typeErr("+", a, b);
}

function numText(v: string | bigint | number): string {
  return typeof v === "number" ? formatFloat(v) : String(v);
}

export function subtract(a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (typeof a === "bigint" && typeof b === "bigint") return checkedInt(a - b);
  if (isNum(a) && isNum(b)) return Number(a) - Number(b);
  throw typeErr("-", a, b);
}

export function multiply(a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (typeof a === "bigint" && typeof b === "bigint") return checkedInt(a * b);
  if (isNum(a) && isNum(b)) return Number(a) * Number(b);
  throw typeErr("*", a, b);
}

export function divide(a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (typeof a === "bigint" && typeof b === "bigint") {
    if (b === 0n) throw new CypherError("ArithmeticError", "runtime", "DivisionByZero", "/ by zero");
    return checkedInt(a / b);
  }
  if (isNum(a) && isNum(b)) return Number(a) / Number(b);
  throw typeErr("/", a, b);
}

export function modulo(a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (typeof a === "bigint" && typeof b === "bigint") {
    if (b === 0n) throw new CypherError("ArithmeticError", "runtime", "DivisionByZero", "% by zero");
    return a % b;
  }
  if (isNum(a) && isNum(b)) return Number(a) % Number(b);
  throw typeErr("%", a, b);
}

export function power(a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (isNum(a) && isNum(b)) return Math.pow(Number(a), Number(b));
  throw typeErr("^", a, b);
}

export function negate(a: Value): Value {
  if (a === null) return null;
  if (typeof a === "bigint") return checkedInt(-a);
  if (typeof a === "number") return -a;
  throw runtimeTypeError("InvalidArgumentType", `cannot negate ${typeName(a)}`);
}
