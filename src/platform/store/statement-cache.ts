import type { SqliteStatement } from "kysely";
import type BetterSqlite3 from "better-sqlite3";

/** Statements kept prepared per connection; SQL texts differ by IN-list lengths, so a few hundred cover the service. */
const CAPACITY = 512;

/** What cachingStatements needs of a better-sqlite3 connection. */
export interface PreparingDatabase {
  prepare(text: string): BetterSqlite3.Statement;
  close(): void;
}

/** Builds a row's object from its values, in the order of `columns`. */
type RowBuilder = ((values: readonly unknown[]) => Record<string, unknown>) & { readonly width: number };

/**
 * A row builder for one list of result columns: an object literal with those keys, so that every
 * row of a statement shares one object shape built in JavaScript. better-sqlite3 builds each row
 * object itself, a property at a time through V8's C++ API: reading rows as arrays and building
 * them here was 25-45% less time for the same rows (60 item rows, 300 episode rows). The source
 * is generated from the column names, each a JSON string literal, never from values.
 */
function rowBuilder(columns: readonly string[]): RowBuilder {
  const literal = columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(", ");
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from column names only (see above)
  const build = new Function("values", `return { ${literal} };`) as (values: readonly unknown[]) => Record<string, unknown>;
  return Object.assign(build, { width: columns.length });
}

/**
 * A statement that returns data, read as arrays and handed out as objects (rowBuilder); others
 * as they are. A row of another width than the builder's (SQLite recompiled the statement after
 * a schema change: `SELECT *` gained a column) gets a builder of the statement's columns now.
 */
function objectRows(statement: BetterSqlite3.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  statement.raw(true);
  const current = () => rowBuilder(statement.columns().map((c) => c.name));
  let build = current();
  const object = (values: unknown[]): Record<string, unknown> => {
    if (values.length !== build.width) build = current();
    return build(values);
  };
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(object),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield object(values);
    },
  };
}

/**
 * A better-sqlite3 connection for Kysely that prepares each SQL text once: Kysely's SQLite driver
 * prepares every statement it runs, which was 7% of the request thread's time under bench:load.
 * Reusing a statement is safe because the driver runs it to completion synchronously (`all` /
 * `run`), and SQLite recompiles a cached statement by itself after a schema change. Least
 * recently used statements beyond CAPACITY are dropped (better-sqlite3 finalizes them when
 * they are collected). Rows are built as objects here (objectRows), not by better-sqlite3.
 */
export function cachingStatements(db: PreparingDatabase, capacity = CAPACITY): { prepare(text: string): SqliteStatement; close(): void } {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(text: string): SqliteStatement {
      const hit = cache.get(text);
      if (hit !== undefined) {
        // Most recently used last: Map keeps insertion order.
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const statement = objectRows(db.prepare(text));
      cache.set(text, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
