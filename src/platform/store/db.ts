import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from "kysely";
import pg from "pg";
import { withCommitCallbacks } from "./after-commit.js";
import { observedDialect } from "./observed-dialect.js";
import { enforceRowSecurity, type RowSecurity } from "./row-security.js";
import { scopedPostgresDialect, type SessionRole } from "./scoped-dialect.js";
import type { Schema } from "./schema.js";
import { WriteHealth } from "./write-health.js";
import { cachingStatements } from "./statement-cache.js";
import { startWalCheckpointer } from "./wal-checkpointer.js";
import { DEFAULT_SQLITE_WAL_LIMIT_MB } from "../config.js";

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
  /**
   * Runs fn in a transaction as the login role, which owns the tables: for the few statements
   * that create objects at runtime (an index for a new vector size). Row-level security still
   * applies to rows it reads or writes in the unit of work's scope.
   */
  asOwner<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * Makes PostgreSQL's row-level security apply to this store's connections from now on (see
   * row-security.ts); call it once migrations ran. On SQLite it reports that there is none.
   */
  enforceRowSecurity(): Promise<RowSecurity>;
  ping(): Promise<void>;
  /** Whether writes fail because the store cannot be written (disk full, read-only), as last seen. */
  readonly health: WriteHealth;
  /**
   * Writes and commits a row that needs new space (16 KB that do not compress), deleting it in the
   * same transaction: throws what a real write would meet (disk full, read-only). Readiness runs it
   * to see a failure end.
   */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** SQLite: the size (bytes) the write-ahead log is cut back to once checkpointed; see openSqlite. */
  walSizeLimitBytes?: number;
  /** Max pool size on PostgreSQL. */
  poolSize?: number;
}

const INT8_OID = 20;

/**
 * A transaction on one SQLite connection. On failure it rolls back only a transaction that is
 * still open: after SQLITE_FULL, SQLITE_IOERR and the like SQLite may have rolled back already,
 * and a ROLLBACK then fails ("no transaction is active") and would replace the real error,
 * which is what propagates (and gets logged).
 */
function sqliteTransaction<T>(
  db: Kysely<Schema>,
  file: BetterSqlite3.Database,
  begin: "BEGIN" | "BEGIN IMMEDIATE",
  fn: (tx: Executor) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql.raw(begin).execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      if (file.inTransaction) await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Committed, not rolled back: a rolled-back SQLite transaction never leaves the page cache, so it
 * went through on a full disk (while every real write failed) and readiness said ready again.
 * The commit writes the pages to the log; the value is random so PostgreSQL cannot compress it
 * into a page it already has, and its row is gone by the end of the transaction.
 */
async function probeWrite(store: Pick<Store, "transaction">): Promise<void> {
  const name = `write-probe:${randomUUID()}`;
  await store.transaction(async (tx) => {
    await tx
      .insertInto("settings")
      .values({ name, value: randomBytes(12_288).toString("base64"), created_at: Date.now() })
      .execute();
    await tx.deleteFrom("settings").where("name", "=", name).execute();
  });
}

/**
 * Page cache per connection, in KiB (SQLite's negative form): 64 MB where SQLite's default is
 * 2 MB. A query's random lookups (visibility of 110 BM25 candidates at 100,000 chunks) went
 * from 2.6 to 1.0 ms once the index pages they walk stay cached. Filled only as pages are read.
 */
const SQLITE_CACHE_KIB = -65_536;

/** SQLite's own automatic checkpoint threshold, restored should the checkpointer thread end. */
const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

function openSqlite(dataDir: string, walSizeLimitBytes: number): Store {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "context-store.sqlite");
  const file = new BetterSqlite3(path);
  file.pragma("journal_mode = WAL");
  file.pragma("synchronous = NORMAL");
  file.pragma("busy_timeout = 10000");
  file.pragma("foreign_keys = ON");
  file.pragma(`cache_size = ${SQLITE_CACHE_KIB}`);
  // Checkpoints run on a thread of their own (wal-checkpointer.ts), not inside a request's COMMIT.
  file.pragma("wal_autocheckpoint = 0");
  // SQLite reuses the log's file from its start but never shrinks it by default: after a bulk
  // ingest (LoCoMo, 5,882 memories) the log held 300-380 MB against a 47 MB database file, for
  // good. With a limit, the first write after a complete checkpoint truncates it to that size.
  file.pragma(`journal_size_limit = ${Math.trunc(walSizeLimitBytes)}`);
  const checkpointer = startWalCheckpointer(path, () => {
    if (file.open) file.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
  });
  const health = new WriteHealth();
  const db = new Kysely<Schema>({ dialect: observedDialect(new SqliteDialect({ database: cachingStatements(file) }), (err) => health.observe(err)) });
  const readFile = new BetterSqlite3(path);
  readFile.pragma("busy_timeout = 10000");
  readFile.pragma("query_only = ON");
  readFile.pragma(`cache_size = ${SQLITE_CACHE_KIB}`);
  const reader = new Kysely<Schema>({ dialect: new SqliteDialect({ database: cachingStatements(readFile) }) });
  const store: Store = {
    backend: "sqlite",
    db,
    reader,
    health,
    transaction: (fn) => sqliteTransaction(db, file, "BEGIN IMMEDIATE", fn),
    snapshot: (fn) => sqliteTransaction(reader, readFile, "BEGIN", fn),
    asOwner: (fn) => sqliteTransaction(db, file, "BEGIN IMMEDIATE", fn),
    enforceRowSecurity: () => Promise.resolve({ mode: "none" }),
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    probeWrite: () => probeWrite(store),
    async close() {
      await checkpointer.stop();
      await reader.destroy();
      await db.destroy();
    },
  };
  return store;
}

const epochAwareTypeParser = ((oid: number, format?: "text" | "binary"): unknown =>
  oid === INT8_OID ? (v: string): number => Number(v) : (pg.types.getTypeParser(oid, format ?? "text") as unknown)) as typeof pg.types.getTypeParser;

/**
 * Every pooled session's settings. pgvector's HNSW search (vector-store.ts): filtered scans go on
 * until enough rows pass the filter (pgvector >= 0.8), over a candidate list of 100. Set once per
 * connection rather than per search, where `SET LOCAL` needed a transaction: BEGIN, two SETs and
 * COMMIT were four round trips around each search (eight for a `type: all` query). Until pgvector's
 * library is loaded in a session these are placeholders, which it adopts when it loads.
 */
const SESSION_SETTINGS = "SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 100";

function openPostgres(url: string, poolSize: number): Store {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Epoch-millisecond BIGINTs fit a double exactly; read them as numbers, not strings.
    types: { getTypeParser: epochAwareTypeParser },
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  // Nor a client checked out when its session ends (failover, pg_terminate_backend): with no
  // listener its 'error' event would be an uncaught exception. Its query fails (503) instead.
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
    // Queued ahead of the client's first query. A failure leaves pgvector's defaults (a search
    // still answers, with fewer candidates); the first query then reports a broken session.
    client.query(SESSION_SETTINGS).catch(() => undefined);
  });
  const health = new WriteHealth();
  const role: SessionRole = { name: null };
  // The observed dialect also keeps a failing ROLLBACK from replacing the error that caused it;
  // the scoped one hands each unit of work's row scope to the server (row-scope.ts).
  const db = new Kysely<Schema>({
    dialect: observedDialect(scopedPostgresDialect(new PostgresDialect({ pool }), role), (err) => health.observe(err)),
  });
  const store: Store = {
    backend: "postgres",
    db,
    reader: db,
    health,
    probeWrite: () => probeWrite(store),
    async transaction(fn) {
      return db.transaction().execute(fn);
    },
    async snapshot(fn) {
      return db.transaction().setIsolationLevel("repeatable read").execute(fn);
    },
    async asOwner(fn) {
      return db.transaction().execute(async (tx) => {
        // Back to the login role until the transaction ends (a no-op when no role was assumed).
        await sql`SET LOCAL ROLE NONE`.execute(tx);
        return fn(tx);
      });
    },
    enforceRowSecurity: () => enforceRowSecurity(db, role),
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
  return store;
}

export function openStore(options: StoreOptions): Store {
  return withCommitCallbacks(
    options.databaseUrl
      ? openPostgres(options.databaseUrl, options.poolSize ?? 10)
      : openSqlite(options.dataDir, options.walSizeLimitBytes ?? DEFAULT_SQLITE_WAL_LIMIT_MB * 1024 * 1024),
  );
}
