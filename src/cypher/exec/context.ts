import { CypherError } from "../errors.js";
import type { GraphStore, RelationshipRecord } from "../store/graph-store.js";
import type { Value } from "../values/value.js";

/** A binding of variable names to values; hidden planner variables start with a space. */
export type Row = Record<string, Value>;

export type Evaluator = (row: Row, ctx: ExecContext) => Value;

export class ExecContext {
  private ticks = 0;
  /** Relationships deleted by this query, so `type(r)` still answers after `DELETE r`. */
  readonly deletedRelationships = new Map<number, RelationshipRecord>();

  constructor(
    readonly store: GraphStore,
    readonly params: ReadonlyMap<string, Value>,
    private readonly deadline: number,
    private readonly now: () => number,
  ) {}

  /**
   * Called from hot loops; the clock is read every 1024 calls so the time budget costs almost
   * nothing. Exceeding it throws, and the caller rolls the query back.
   */
  tick(): void {
    if ((++this.ticks & 1023) !== 0) return;
    if (this.now() > this.deadline) {
      throw new CypherError("TimeoutError", "runtime", "QueryTimeout", "query exceeded its time budget and was rolled back");
    }
  }
}
