import type { CypherError } from "../errors.js";
import { INT64_MAX, INT64_MIN } from "../values/int64.js";
import type { Token } from "./token.js";

/** Converts an int/float token to a value; `negate` folds a leading minus into the literal. */
export function parseNumberLiteral(token: Token, negate: boolean, fail: (detail: string, reason: string) => CypherError): bigint | number {
  if (token.type === "float") {
    const v = Number(token.text);
    if (!Number.isFinite(v)) throw fail("FloatingPointOverflow", `float literal ${token.text} is out of range`);
    return negate ? -v : v;
  }
  const text = token.text;
  let v: bigint;
  if (text.startsWith("0o")) v = BigInt(`0o${text.slice(2)}`);
  else if (text.startsWith("0x") || text.startsWith("0X")) v = BigInt(`0x${text.slice(2)}`);
  else v = BigInt(text);
  if (negate) v = -v;
  if (v > INT64_MAX || v < INT64_MIN) throw fail("IntegerOverflow", `integer literal ${negate ? "-" : ""}${text} is out of range`);
  return v;
}
