import { argumentError, runtimeTypeError } from "../errors.js";
import { orderCompare, valueKey } from "../values/compare.js";
import { checkedInt } from "../values/int64.js";
import { typeName } from "../values/value.js";
import type { ExecContext } from "./context.js";
import type { Value } from "../values/value.js";

/** One running aggregate for one group. */
export interface Aggregator {
  add(value: Value, extra: Value): void;
  result(): Value;
}

function num(fn: string, v: Value): bigint | number {
  if (typeof v === "bigint" || typeof v === "number") return v;
  throw runtimeTypeError("InvalidArgumentType", `${fn}() expects numbers, got ${typeName(v)}`);
}

/** Fails the query before a list an aggregate holds grows past the budget. */
type Grow = (length: number) => void;

function makeBase(name: string, grow: Grow): Aggregator {
  switch (name) {
    case "count": {
      let n = 0n;
      return { add: () => void n++, result: () => n };
    }
    case "sum": {
      let int = 0n;
      let float = 0;
      let isFloat = false;
      return {
        add: (v) => {
          const x = num("sum", v);
          if (typeof x === "number") isFloat = true;
          if (typeof x === "bigint" && !isFloat) int = checkedInt(int + x);
          else float += Number(x);
        },
        result: () => (isFloat ? float + Number(int) : int),
      };
    }
    case "avg": {
      let total = 0;
      let n = 0;
      return {
        add: (v) => {
          total += Number(num("avg", v));
          n++;
        },
        result: () => (n === 0 ? null : total / n),
      };
    }
    case "min":
    case "max": {
      let best: Value = null;
      const sign = name === "min" ? -1 : 1;
      return {
        add: (v) => {
          if (best === null || Math.sign(orderCompare(v, best)) === sign) best = v;
        },
        result: () => best,
      };
    }
    case "collect": {
      const items: Value[] = [];
      return { add: (v) => void grow(items.push(v)), result: () => items };
    }
    case "stdev":
    case "stdevp": {
      const xs: number[] = [];
      return {
        add: (v) => void grow(xs.push(Number(num(name, v)))),
        result: () => {
          const n = xs.length;
          const denominator = name === "stdev" ? n - 1 : n;
          if (denominator <= 0) return 0;
          const mean = xs.reduce((a, b) => a + b, 0) / n;
          return Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / denominator);
        },
      };
    }
    case "percentilecont":
    case "percentiledisc":
      return percentile(name === "percentilecont", grow);
    default:
      throw new Error(`unknown aggregate ${name}`);
  }
}

function percentile(continuous: boolean, grow: Grow): Aggregator {
  const xs: (bigint | number)[] = [];
  let p: number | null = null;
  return {
    add: (v, extra) => {
      const q = Number(num("percentile", extra));
      if (q < 0 || q > 1 || Number.isNaN(q)) throw argumentError("NumberOutOfRange", `percentile must be between 0.0 and 1.0, got ${q}`);
      p = q;
      grow(xs.push(num("percentile", v)));
    },
    result: () => {
      if (xs.length === 0 || p === null) return null;
      const sorted = [...xs].sort((a, b) => orderCompare(a, b));
      if (continuous) {
        const idx = p * (sorted.length - 1);
        const lo = Math.floor(idx);
        const hi = Math.ceil(idx);
        const a = Number(sorted[lo] ?? 0);
        const b = Number(sorted[hi] ?? 0);
        return a + (idx - lo) * (b - a);
      }
      const idx = Math.max(0, Math.ceil(p * sorted.length) - 1);
      return sorted[idx] ?? null;
    },
  };
}

/** Nulls are skipped (except by count(*), which never sees a value); DISTINCT drops repeats. */
export function makeAggregator(name: string, distinct: boolean, ctx: ExecContext): Aggregator {
  const grow: Grow = (length) => ctx.checkLength(length, "list");
  const base = makeBase(name, grow);
  const seen = distinct ? new Set<string>() : null;
  return {
    add(value, extra) {
      if (value === null) return;
      if (seen !== null) {
        const k = valueKey(value);
        if (seen.has(k)) return;
        grow(seen.add(k).size);
      }
      base.add(value, extra);
    },
    result: () => base.result(),
  };
}
