import type { Evaluator, ExecContext, Row } from "../context.js";

/** UNWIND: a list yields one row per element, null yields none, any other value yields itself once. */
export function* unwindOp(input: Iterable<Row>, list: Evaluator, variable: string, ctx: ExecContext): Generator<Row> {
  for (const row of input) {
    const v = list(row, ctx);
    if (v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) {
        ctx.tick();
        yield { ...row, [variable]: item };
      }
    } else yield { ...row, [variable]: v };
  }
}
