import { resourceLimitError, timeoutError } from "../errors.js";
import type { GraphStore, RelationshipRecord } from "../store/graph-store.js";
import type { Value } from "../values/value.js";

/** A binding of variable names to values; hidden planner variables start with a space. */
export type Row = Record<string, Value>;

export type Evaluator = (row: Row, ctx: ExecContext) => Value;

/**
 * What one query may spend. Every operator and function that loops or builds checks it, so a
 * hostile query fails fast with a clean error instead of freezing or exhausting its thread.
 */
export interface ExecBudget {
  /** Clock value past which the query stops (TimeoutError). */
  readonly deadline: number;
  readonly now: () => number;
  /** Longest list a query may build, and most rows it may hold at once (sorting, grouping, an update's input). */
  readonly maxListLength: number;
  /** Longest string a query may build, in UTF-16 code units. */
  readonly maxStringLength: number;
  /** Optional probe of the thread's heap: true when the query must stop to stay within memory. */
  readonly memoryExceeded: (() => boolean) | null;
  /** Most steps (input length x program size) one `=~` match may take; past it ResourceLimitError. */
  readonly maxRegexWork: number;
}

/** Work units (10 to 30 ns each at worst) charged between two reads of the clock. */
const WORK_PER_CLOCK_READ = 1_000_000;

export class ExecContext {
  private ticks = 0;
  private work = 0;
  /** Relationships deleted by this query, so `type(r)` still answers after `DELETE r`. */
  readonly deletedRelationships = new Map<number, RelationshipRecord>();

  constructor(
    readonly store: GraphStore,
    readonly params: ReadonlyMap<string, Value>,
    readonly budget: ExecBudget,
  ) {}

  /**
   * Called from hot loops; the clock is read every 1024 calls and the heap probe every 16,384, so
   * the budget costs almost nothing. Exceeding it throws, and the caller rolls the query back.
   */
  tick(): void {
    const t = ++this.ticks;
    if ((t & 1023) !== 0) return;
    if (this.budget.now() > this.budget.deadline) throw timeoutError();
    if ((t & 16383) === 0 && this.budget.memoryExceeded?.() === true) {
      throw resourceLimitError("MemoryLimitExceeded", "query exceeded its memory budget and was rolled back");
    }
  }

  /**
   * For one call that costs much more than a loop step (a regular expression match): charged
   * before it runs, so that a thousand such calls between two ticks cannot overrun the deadline.
   */
  charge(units: number): void {
    this.work += units;
    if (this.work < WORK_PER_CLOCK_READ) return;
    this.work = 0;
    if (this.budget.now() > this.budget.deadline) throw timeoutError();
  }

  /** Fails before a list of `length` elements (or a buffer of that many rows) is built. */
  checkLength(length: number, what: "list" | "rows"): void {
    if (length <= this.budget.maxListLength) return;
    throw what === "list"
      ? resourceLimitError("ListTooLong", `query would build a list of more than ${this.budget.maxListLength} elements`)
      : resourceLimitError("TooManyRows", `query would hold more than ${this.budget.maxListLength} rows at once`);
  }

  /** Checks a freshly built value against the list and string budgets and passes it on. */
  sized<T extends Value>(v: T): T {
    if (typeof v === "string") {
      if (v.length > this.budget.maxStringLength) {
        throw resourceLimitError("StringTooLong", `query would build a string of more than ${this.budget.maxStringLength} characters`);
      }
    } else if (Array.isArray(v)) this.checkLength(v.length, "list");
    return v;
  }

  /** Materialises rows (an update's input, a sort buffer) within the time and row budgets. */
  drain<T>(rows: Iterable<T>): T[] {
    const out: T[] = [];
    for (const r of rows) {
      this.tick();
      if (out.length >= this.budget.maxListLength) this.checkLength(out.length + 1, "rows");
      out.push(r);
    }
    return out;
  }
}
