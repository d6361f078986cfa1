import { CypherError } from "../errors.js";

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Integer arithmetic is 64-bit like Neo4j: leaving the range is an error, never a silent wrap. */
export function checkedInt(v: bigint): bigint {
  if (v < INT64_MIN || v > INT64_MAX) {
    throw new CypherError("ArithmeticError", "runtime", "IntegerOverflow", `integer overflow: ${v} does not fit in 64 bits`);
  }
  return v;
}
