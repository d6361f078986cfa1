import type { SqliteDatabase, SqliteStatement } from "kysely";

/** Statements kept prepared per connection; SQL texts differ by IN-list lengths, so a few hundred cover the service. */
const CAPACITY = 512;

/**
 * A better-sqlite3 connection for Kysely that prepares each SQL text once: Kysely's SQLite driver
 * prepares every statement it runs, which was 7% of the request thread's time under bench:load.
 * Reusing a statement is safe because the driver runs it to completion synchronously (`all` /
 * `run`), and SQLite recompiles a cached statement by itself after a schema change. Least
 * recently used statements beyond CAPACITY are dropped (better-sqlite3 finalizes them when
 * they are collected).
 */
export function cachingStatements(db: SqliteDatabase, capacity = CAPACITY): SqliteDatabase {
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
      const statement = db.prepare(text);
      cache.set(text, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
