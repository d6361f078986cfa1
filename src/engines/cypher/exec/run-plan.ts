import type { PlanStep, QueryPlan } from "../plan/logical-plan.js";
import { valueKey } from "../values/compare.js";
import type { ExecContext, Row } from "./context.js";
import { matchOp } from "./operators/match-op.js";
import { projectionOp } from "./operators/projection-op.js";
import { unwindOp } from "./operators/unwind-op.js";
import { createOp, deleteOp, mergeOp, updateOp } from "./operators/write-ops.js";

/**
 * Builds the iterator chain for a plan. Reading steps stay lazy (LIMIT stops the scan early);
 * a writing step is drained at the point it is reached, which makes every write see a finished
 * input and happen even when a later LIMIT 0 discards the rows.
 */
export function runPlan(plan: QueryPlan, input: readonly Row[], ctx: ExecContext): Iterable<Row> {
  if (plan.kind === "Union") return union(plan, input, ctx);
  let rows: Iterable<Row> = input;
  for (const step of plan.steps) rows = applyStep(step, rows, ctx);
  return rows;
}

function* union(plan: QueryPlan & { kind: "Union" }, input: readonly Row[], ctx: ExecContext): Generator<Row> {
  const seen = new Set<string>();
  for (const part of plan.parts) {
    for (const row of runPlan(part, input, ctx)) {
      if (plan.distinct) {
        const key = plan.columns.map((c) => valueKey(row[c] ?? null)).join("\u0001");
        if (seen.has(key)) continue;
        ctx.checkLength(seen.add(key).size, "rows");
      }
      yield row;
    }
  }
}

function applyStep(step: PlanStep, rows: Iterable<Row>, ctx: ExecContext): Iterable<Row> {
  switch (step.kind) {
    case "Match":
      return matchOp(rows, step.program, step.optional, ctx);
    case "Unwind":
      return unwindOp(rows, step.list, step.variable, ctx);
    case "Projection":
      return projectionOp(rows, step.spec, ctx);
    case "Create":
      return createOp(ctx.drain(rows), step.patterns, ctx);
    case "Merge":
      return mergeOp(ctx.drain(rows), step.pattern, step.program, step.onCreate, step.onMatch, ctx);
    case "Update":
      return updateOp(ctx.drain(rows), step.ops, ctx);
    case "Delete":
      return deleteOp(ctx.drain(rows), step.targets, step.detach, ctx);
    case "CallSubquery":
      return callSubquery(ctx.drain(rows), step, ctx);
    case "SchemaChange": {
      const materialised = ctx.drain(rows);
      if (step.action === "create") ctx.store.createIndex(step.index);
      else ctx.store.dropIndex(step.index);
      return materialised;
    }
  }
}

/** CALL { }: runs the body once per row; the body's writes happen eagerly like any other write. */
function callSubquery(rows: readonly Row[], step: PlanStep & { kind: "CallSubquery" }, ctx: ExecContext): Row[] {
  const out: Row[] = [];
  for (const row of rows) {
    const inner = ctx.drain(runPlan(step.plan, [step.imports ? row : {}], ctx));
    if (!step.returns) {
      out.push(row);
      continue;
    }
    ctx.checkLength(out.length + inner.length, "rows");
    for (const r of inner) out.push({ ...row, ...r });
  }
  return out;
}
