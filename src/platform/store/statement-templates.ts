import { CompiledQuery, type Compilable, type RawBuilder } from "kysely";
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
  readonly layout: Layout;
}

/** Shapes kept per template and dialect, least recently used dropped beyond it. */
const CAPACITY = 128;

/** Arrays and plain objects are walked; anything else (strings, numbers, null, byte arrays, dates) is a value. */
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Kysely's expressions and raw SQL (they build SQL, not a parameter). */
export const isExpression = (v: unknown): boolean =>
  typeof v === "object" && v !== null && typeof (v as { toOperationNode?: unknown }).toOperationNode === "function";

/** A values tree's layout as compiled: each plain object's keys, in walk order. */
type Layout = string[][];

/**
 * The values at the leaves of `value`, walked as `layout` was recorded (arrays in order, each
 * plain object by the keys recorded for it), so that an object listing the same keys in another
 * order gives its values in the compiled order; false when the tree does not have that layout
 * (other keys, another object count).
 */
function leavesOf(value: unknown, layout: Layout, at: { object: number }, out: unknown[]): boolean {
  if (Array.isArray(value)) {
    for (const v of value) if (!leavesOf(v, layout, at, out)) return false;
    return true;
  }
  if (isPlainObject(value)) {
    const keys = layout[at.object++];
    if (keys === undefined) return false;
    // As many keys as recorded, each recorded one present: the same keys.
    let count = 0;
    for (const _key in value) count++;
    if (count !== keys.length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(value, key)) return false;
      if (!leavesOf(value[key], layout, at, out)) return false;
    }
    return true;
  }
  // An undefined leaf is a column kysely would leave out; a template cannot: say null or drop the key.
  if (value === undefined) throw new Error("a statement template got an undefined value");
  if (isExpression(value)) throw new Error("a statement template got SQL among its values: put it in the statement");
  out.push(value);
  return true;
}

/** `value` with every leaf replaced by its Slot, in walk order; each plain object's keys recorded in `layout`. */
function slotted(value: unknown, next: { leaf: number }, layout: Layout): unknown {
  if (Array.isArray(value)) return value.map((v) => slotted(v, next, layout));
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    layout.push(keys);
    const out: Record<string, unknown> = {};
    for (const key of keys) out[key] = slotted(value[key], next, layout);
    return out;
  }
  return new Slot(next.leaf++);
}

/** A raw SQL statement (kysely's `sql` tag) as a template's `build` returns it. */
export const rawStatement = <R>(db: Executor, raw: RawBuilder<R>): Compilable<R> => ({ compile: () => raw.compile(db) });

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
 * from: it sees stand-ins) and a shape must fix the tree's layout: the same keys in each object
 * (in any order: the values are read by the keys compiled) and the same array lengths; a run
 * whose values have another layout throws. Values `build` writes itself (its own constants)
 * stay as compiled.
 */
export function statementTemplate<V, R>(shape: (values: V) => string, build: (db: Executor, values: V) => Compilable<R>): StatementTemplate<V, R> {
  // Per dialect adapter: a transaction shares its store's adapter; SQLite and PostgreSQL differ.
  const byDialect = new WeakMap<object, Map<string, Compiled>>();
  const compile = (db: Executor, values: V): Compiled => {
    const next = { leaf: 0 };
    const layout: Layout = [];
    const query = build(db, slotted(values, next, layout) as V).compile();
    const order = new Int32Array(query.parameters.length);
    const constants: unknown[] = [];
    query.parameters.forEach((p, i) => {
      if (p instanceof Slot) order[i] = p.leaf;
      else order[i] = -1 - (constants.push(p) - 1);
    });
    return { sql: query.sql, order, constants, leaves: next.leaf, layout };
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
      const at = { object: 0 };
      if (!leavesOf(values, compiled.layout, at, leaves) || at.object !== compiled.layout.length || leaves.length !== compiled.leaves)
        throw new Error(`a statement template's shape "${key}" does not fix its values' layout`);
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
