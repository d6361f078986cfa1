import { CompiledQuery, type Compilable } from "kysely";
import type { Executor } from "./db.js";

/** Stands for one value while a statement's shape is compiled: the index of its leaf. */
class Slot {
  constructor(readonly leaf: number) {}
}

interface Compiled {
  readonly sql: string;
  /** For each parameter of the statement, the index of its value among the leaves (>= 0) or among the constants (-1 - index). */
  readonly order: Int32Array;
  /** Values `build` put in the statement itself, the same on every run. */
  readonly constants: readonly unknown[];
  readonly leaves: number;
}

/** Shapes kept per template and dialect, least recently used dropped beyond it. */
const CAPACITY = 128;

/** Arrays and plain objects are walked; anything else (strings, numbers, null, byte arrays, dates) is a value. */
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Kysely's expressions and raw SQL (they build SQL, not a parameter). */
export const isExpression = (v: unknown): boolean =>
  typeof v === "object" && v !== null && typeof (v as { toOperationNode?: unknown }).toOperationNode === "function";

/** The values at the leaves of `value`, in walk order (array order, then the objects' key order). */
function leavesOf(value: unknown, out: unknown[]): void {
  if (Array.isArray(value)) {
    for (const v of value) leavesOf(v, out);
  } else if (isPlainObject(value)) {
    for (const key in value) leavesOf(value[key], out);
  } else {
    // An undefined leaf is a column kysely would leave out; a template cannot: say null or drop the key.
    if (value === undefined) throw new Error("a statement template got an undefined value");
    if (isExpression(value)) throw new Error("a statement template got SQL among its values: put it in the statement");
    out.push(value);
  }
}

/** `value` with every leaf replaced by its Slot, in the walk order of leavesOf. */
function slotted(value: unknown, next: { leaf: number }): unknown {
  if (Array.isArray(value)) return value.map((v) => slotted(v, next));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key in value) out[key] = slotted(value[key], next);
    return out;
  }
  return new Slot(next.leaf++);
}

export interface StatementTemplate<V, R> {
  /** Runs the statement for `values` on `db` (a transaction or the store): its rows. */
  run(db: Executor, values: V): Promise<R[]>;
}

/**
 * A statement that kysely builds and compiles once per shape (`shape(values)`: a key naming
 * everything its SQL text depends on, such as a row count) and per dialect; every run after the
 * first only puts the values in the parameters' order and hands the SQL to the same executor
 * (transactions, row scope and the store's error observer alike). Kysely's building of the group
 * write's multi-row statements was a tenth of the request thread in bench:ingest, and a fifth of
 * the garbage. The values are any tree of arrays and plain objects; its leaves are the
 * parameters, so `build` must use every leaf as a value (not as SQL, nor to compute anything
 * from: it sees stand-ins) and a shape must fix the tree's layout: same keys in the same order,
 * same array lengths (a differing leaf count throws). Values `build` writes itself (its own
 * constants) stay as compiled.
 */
export function statementTemplate<V, R>(shape: (values: V) => string, build: (db: Executor, values: V) => Compilable<R>): StatementTemplate<V, R> {
  // Per dialect adapter: a transaction shares its store's adapter; SQLite and PostgreSQL differ.
  const byDialect = new WeakMap<object, Map<string, Compiled>>();
  const compile = (db: Executor, values: V): Compiled => {
    const next = { leaf: 0 };
    const query = build(db, slotted(values, next) as V).compile();
    const order = new Int32Array(query.parameters.length);
    const constants: unknown[] = [];
    query.parameters.forEach((p, i) => {
      if (p instanceof Slot) order[i] = p.leaf;
      else order[i] = -1 - (constants.push(p) - 1);
    });
    return { sql: query.sql, order, constants, leaves: next.leaf };
  };
  return {
    async run(db, values) {
      const adapter = db.getExecutor().adapter;
      let cache = byDialect.get(adapter);
      if (cache === undefined) byDialect.set(adapter, (cache = new Map<string, Compiled>()));
      const key = shape(values);
      let compiled = cache.get(key);
      if (compiled === undefined) {
        compiled = compile(db, values);
        if (cache.size >= CAPACITY) cache.delete(cache.keys().next().value as string);
      } else cache.delete(key);
      // Most recently used last: Map keeps insertion order.
      cache.set(key, compiled);
      const leaves: unknown[] = [];
      leavesOf(values, leaves);
      if (leaves.length !== compiled.leaves) throw new Error(`a statement template's shape "${key}" does not fix its values' layout`);
      const parameters = new Array<unknown>(compiled.order.length);
      for (let i = 0; i < compiled.order.length; i++) {
        const at = compiled.order[i]!;
        parameters[i] = at >= 0 ? leaves[at] : compiled.constants[-1 - at];
      }
      const result = await db.executeQuery(CompiledQuery.raw(compiled.sql, parameters));
      return result.rows as R[];
    },
  };
}
