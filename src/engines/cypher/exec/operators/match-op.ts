import type { ExecContext, Row } from "../context.js";
import { runMatch } from "../match-executor.js";
import type { MatchProgram } from "../match-program.js";

export function* matchOp(input: Iterable<Row>, program: MatchProgram, optional: boolean, ctx: ExecContext): Generator<Row> {
  for (const row of input) {
    let any = false;
    for (const out of runMatch(program, row, ctx)) {
      any = true;
      yield out;
    }
    if (optional && !any) {
      const padded: Row = { ...row };
      for (const v of program.introduced) if (padded[v] === undefined) padded[v] = null;
      yield padded;
    }
  }
}
