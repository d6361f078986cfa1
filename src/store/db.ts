import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from "kysely";
import pg from "pg";
import type { Schema } from "./schema.js";

export type Backend = "sqlite" | "postgres";

/** Either the root handle or an open transaction: stores accept both. */
export type Executor = Kysely<Schema> | Transaction<Schema>;

export interface Store {
  readonly backend: Backend;
  readonly db: Kysely<Schema>;
  /**
   * For reads only: on SQLite a second connection, so reads (queries, status, lists) never wait
   * behind a write transaction that holds the writer connection across its awaits; WAL gives
   * them the latest committed state. On PostgreSQL the same pool as `db`.
   */
  readonly reader: Kysely<Schema>;
  /**
   * Runs fn in one transaction. On SQLite it is BEGIN IMMEDIATE, so the write lock is
   * taken up front and a concurrent process waits (busy_timeout) instead of failing
   * mid-transaction on a lock upgrade.
   */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * Runs fn in a read transaction that sees one consistent state without blocking writers:
   * REPEATABLE READ on PostgreSQL, a deferred (WAL snapshot) transaction on SQLite's reader.
   */
  snapshot<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Max pool size on PostgreSQL. */
  poolSize?: number;
}

const INT8_OID = 20;

function sqliteTransaction<T>(db: Kysely<Schema>, begin: "BEGIN" | "BEGIN IMMEDIATE", fn: (tx: Executor) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql.raw(begin).execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn);
      throw err;
    }
  });
}

function openSqlite(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const file = new BetterSqlite3(join(dataDir, "context-store.sqlite"));
  file.pragma("journal_mode = WAL");
  file.pragma("synchronous = NORMAL");
  file.pragma("busy_timeout = 10000");
  file.pragma("foreign_keys = ON");
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: file }) });
  const readFile = new BetterSqlite3(join(dataDir, "context-store.sqlite"));
  readFile.pragma("busy_timeout = 10000");
  readFile.pragma("query_only = ON");
  const reader = new Kysely<Schema>({ dialect: new SqliteDialect({ database: readFile }) });
  return {
    backend: "sqlite",
    db,
    reader,
    transaction: (fn) => sqliteTransaction(db, "BEGIN IMMEDIATE", fn),
    snapshot: (fn) => sqliteTransaction(reader, "BEGIN", fn),
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    async close() {
      await reader.destroy();
      await db.destroy();
    },
  };
}

const epochAwareTypeParser = ((oid: number, format?: "text" | "binary"): unknown =>
  oid === INT8_OID ? (v: string): number => Number(v) : (pg.types.getTypeParser(oid, format ?? "text") as unknown)) as typeof pg.types.getTypeParser;

function openPostgres(url: string, poolSize: number): Store {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Epoch-millisecond BIGINTs fit a double exactly; read them as numbers, not strings.
    types: { getTypeParser: epochAwareTypeParser },
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return {
    backend: "postgres",
    db,
    reader: db,
    async transaction(fn) {
      return db.transaction().execute(fn);
    },
    async snapshot(fn) {
      return db.transaction().setIsolationLevel("repeatable read").execute(fn);
    },
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

export function openStore(options: StoreOptions): Store {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
    : openSqlite(options.dataDir);
}
