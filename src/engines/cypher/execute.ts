import { parseQuery } from "./parser/parse.js";
import { analyzeQuery } from "./semantic/analyze.js";
import { planQuery } from "./plan/plan-query.js";
import { ExecContext } from "./exec/context.js";
import type { Row } from "./exec/context.js";
import { runPlan } from "./exec/run-plan.js";
import type { GraphStore } from "./store/graph-store.js";
import { fromJson } from "./values/from-json.js";
import type { Value } from "./values/value.js";

export interface ExecuteOptions {
  /** Maximum rows returned; further rows are dropped silently and `truncated` is set. Default 10,000. */
  readonly maxRows?: number;
  /** Time budget in milliseconds; exceeding it throws and rolls the query back. Default 30,000. */
  readonly timeoutMs?: number;
  /** Injectable clock for tests. */
  readonly now?: () => number;
  /** Longest list built and most rows held at once; past it ResourceLimitError. Default 10,000,000. */
  readonly maxListLength?: number;
  /** Longest string built (UTF-16 code units); past it ResourceLimitError. Default 4,194,304. */
  readonly maxStringLength?: number;
  /** Probe of the heap, polled from hot loops; true stops the query with ResourceLimitError. */
  readonly memoryExceeded?: () => boolean;
  /** Most steps (input length x compiled pattern size) one `=~` may take; past it ResourceLimitError. Default 20,000,000. */
  readonly maxRegexWork?: number;
}

export interface CypherResult {
  readonly columns: string[];
  readonly rows: Record<string, Value>[];
  readonly truncated: boolean;
}

const DEFAULT_MAX_ROWS = 10_000;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_LIST_LENGTH = 10_000_000;
const DEFAULT_MAX_STRING_LENGTH = 4 * 1024 * 1024;
const DEFAULT_MAX_REGEX_WORK = 20_000_000;
/** Nesting of parameter values (lists and maps), checked before they are converted. */
export const MAX_PARAM_DEPTH = 100;

/**
 * Parses, checks, plans and runs one query atomically: if anything throws, every write the query
 * made is undone before the error propagates. Compile-time errors are raised before any write.
 */
export function executeCypher(store: GraphStore, query: string, params: Readonly<Record<string, unknown>> = {}, options: ExecuteOptions = {}): CypherResult {
  const ast = parseQuery(query);
  analyzeQuery(ast, query);
  const plan = planQuery(ast);
  const now = options.now ?? (() => performance.now());
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  const paramMap = new Map<string, Value>(Object.entries(params).map(([k, v]) => [k, fromJson(v, MAX_PARAM_DEPTH)]));
  const ctx = new ExecContext(store, paramMap, {
    deadline: now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    now,
    maxListLength: options.maxListLength ?? DEFAULT_MAX_LIST_LENGTH,
    maxStringLength: options.maxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
    memoryExceeded: options.memoryExceeded ?? null,
    maxRegexWork: options.maxRegexWork ?? DEFAULT_MAX_REGEX_WORK,
  });
  const mark = store.mark();
  try {
    const rows: Record<string, Value>[] = [];
    let truncated = false;
    for (const row of runPlan(plan, [{}], ctx)) {
      if (plan.columns.length === 0) continue;
      if (rows.length >= maxRows) {
        truncated = true;
        break;
      }
      rows.push(pick(row, plan.columns));
    }
    store.commit();
    return { columns: [...plan.columns], rows, truncated };
  } catch (e) {
    store.rollback(mark);
    throw e;
  }
}

function pick(row: Row, columns: readonly string[]): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const c of columns) out[c] = row[c] ?? null;
  return out;
}
