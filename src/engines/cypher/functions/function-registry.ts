import { conversionFunctions } from "./conversion-functions.js";
import type { FunctionDef } from "./function-def.js";
import { graphFunctions } from "./graph-functions.js";
import { listFunctions } from "./list-functions.js";
import { mathFunctions } from "./math-functions.js";
import { stringFunctions } from "./string-functions.js";

const SCALAR: Readonly<Record<string, FunctionDef>> = {
  ...mathFunctions,
  ...stringFunctions,
  ...conversionFunctions,
  ...listFunctions,
  ...graphFunctions,
};

/** Aggregating functions and their argument counts; they are evaluated by the aggregation operator. */
export const AGGREGATES: Readonly<Record<string, { min: number; max: number }>> = {
  count: { min: 1, max: 1 },
  sum: { min: 1, max: 1 },
  avg: { min: 1, max: 1 },
  min: { min: 1, max: 1 },
  max: { min: 1, max: 1 },
  collect: { min: 1, max: 1 },
  stdev: { min: 1, max: 1 },
  stdevp: { min: 1, max: 1 },
  percentilecont: { min: 2, max: 2 },
  percentiledisc: { min: 2, max: 2 },
};

export function lookupFunction(name: string): FunctionDef | undefined {
  return Object.hasOwn(SCALAR, name) ? SCALAR[name] : undefined;
}

export function isAggregateName(name: string): boolean {
  return Object.hasOwn(AGGREGATES, name);
}
