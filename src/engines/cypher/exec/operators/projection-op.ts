import { CypherError } from "../../errors.js";
import type { ProjectionSpec } from "../../plan/logical-plan.js";
import { orderCompare, valueKey } from "../../values/compare.js";
import type { Value } from "../../values/value.js";
import { makeAggregator } from "../aggregators.js";
import type { Aggregator } from "../aggregators.js";
import type { Evaluator, ExecContext, Row } from "../context.js";

interface Projected {
  readonly env: Row;
  readonly out: Row;
}

/** WITH / RETURN: aggregation, projection, DISTINCT, ORDER BY, SKIP, LIMIT, then WITH's WHERE. */
export function* projectionOp(input: Iterable<Row>, spec: ProjectionSpec, ctx: ExecContext): Generator<Row> {
  let rows: Iterable<Projected> = spec.aggregation === null ? mapRows(input, spec, ctx) : aggregate(input, spec, ctx);
  if (spec.distinct) rows = distinct(rows, spec, ctx);
  if (spec.orderBy.length > 0) rows = sort(rows, spec, ctx);
  const skip = spec.skip === null ? 0 : count(spec.skip, "SKIP", ctx);
  const limit = spec.limit === null ? Infinity : count(spec.limit, "LIMIT", ctx);
  let index = 0;
  let emitted = 0;
  for (const r of rows) {
    if (index++ < skip) continue;
    if (++emitted > limit) return;
    if (spec.where === null || spec.where({ ...r.env, ...r.out }, ctx) === true) yield r.out;
  }
}

function project(env: Row, spec: ProjectionSpec, ctx: ExecContext): Row {
  const out: Row = {};
  for (const k of spec.keep) out[k] = env[k] ?? null;
  for (const item of spec.items) out[item.name] = item.eval(env, ctx);
  return out;
}

function* mapRows(input: Iterable<Row>, spec: ProjectionSpec, ctx: ExecContext): Generator<Projected> {
  for (const env of input) {
    ctx.tick();
    yield { env, out: project(env, spec, ctx) };
  }
}

function* aggregate(input: Iterable<Row>, spec: ProjectionSpec, ctx: ExecContext): Generator<Projected> {
  const agg = spec.aggregation;
  if (agg === null) return;
  const groups = new Map<string, { first: Row; aggs: Aggregator[] }>();
  const newGroup = (first: Row) => ({ first, aggs: agg.slots.map((s) => makeAggregator(s.name, s.distinct, ctx)) });
  for (const row of input) {
    ctx.tick();
    const key = agg.keys.map((k) => valueKey(k(row, ctx))).join("\u0001");
    let group = groups.get(key);
    if (group === undefined) {
      group = newGroup(row);
      ctx.checkLength(groups.set(key, group).size, "rows");
    }
    agg.slots.forEach((slot, i) => {
      const value: Value = slot.arg === null ? true : slot.arg(row, ctx);
      const extra = slot.extra === null ? null : slot.extra(row, ctx);
      group.aggs[i]?.add(value, extra);
    });
  }
  // Without grouping keys an empty input still yields one row (count(*) = 0).
  if (groups.size === 0 && agg.keys.length === 0) groups.set("", newGroup({}));
  for (const { first, aggs } of groups.values()) {
    const env: Row = { ...first };
    agg.slots.forEach((slot, i) => (env[slot.slot] = aggs[i]?.result() ?? null));
    yield { env, out: project(env, spec, ctx) };
  }
}

function* distinct(rows: Iterable<Projected>, spec: ProjectionSpec, ctx: ExecContext): Generator<Projected> {
  const seen = new Set<string>();
  const names = [...spec.keep, ...spec.items.map((i) => i.name)];
  for (const r of rows) {
    const key = names.map((n) => valueKey(r.out[n] ?? null)).join("\u0001");
    if (seen.has(key)) continue;
    ctx.checkLength(seen.add(key).size, "rows");
    yield r;
  }
}

function sort(rows: Iterable<Projected>, spec: ProjectionSpec, ctx: ExecContext): Projected[] {
  const keyed = ctx.drain(rows).map((r) => {
    const scope = { ...r.env, ...r.out };
    return { r, keys: spec.orderBy.map((o) => o.eval(scope, ctx)) };
  });
  keyed.sort((a, b) => {
    ctx.tick();
    for (let i = 0; i < spec.orderBy.length; i++) {
      const c = orderCompare(a.keys[i] ?? null, b.keys[i] ?? null);
      if (c !== 0) return spec.orderBy[i]?.descending === true ? -c : c;
    }
    return 0;
  });
  return keyed.map((k) => k.r);
}

function count(e: Evaluator, what: string, ctx: ExecContext): number {
  const v = e({}, ctx);
  if (typeof v !== "bigint") {
    throw new CypherError("SyntaxError", "runtime", "InvalidArgumentType", `${what} expects a non-negative integer`);
  }
  if (v < 0n) throw new CypherError("SyntaxError", "runtime", "NegativeIntegerArgument", `${what} must not be negative`);
  return Number(v);
}
