import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Schema } from "./schema.js";
import { cachingStatements } from "./statement-cache.js";

/** One read-only connection of the pool and its Kysely handle. */
export interface SnapshotConnection {
  readonly db: Kysely<Schema>;
  readonly file: BetterSqlite3.Database;
}

/**
 * Read-only connections for snapshots (read transactions that span awaits: graph context,
 * subgraphs, exports). A snapshot on the shared reader connection held it, and so every other
 * read of the process, until it ended: under bench:load each POST /query's graph context held it
 * 50-140 ms while the event loop served other requests, and the process's reads queued behind
 * one snapshot after another. Here each snapshot has a connection to itself; WAL gives each its
 * own consistent state. Connections open on first need, up to `max`; a snapshot beyond that
 * waits for one to be released.
 */
export class SnapshotConnections {
  private readonly idle: SnapshotConnection[] = [];
  private readonly all: SnapshotConnection[] = [];
  private readonly waiting: Array<(c: SnapshotConnection) => void> = [];
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly max: number,
    private readonly cacheKib: number,
  ) {}

  /** Runs fn with a connection of its own, released when fn settles. */
  async with<T>(fn: (c: SnapshotConnection) => Promise<T>): Promise<T> {
    const connection = await this.acquire();
    try {
      return await fn(connection);
    } finally {
      this.release(connection);
    }
  }

  /** Connections opened so far. */
  get size(): number {
    return this.all.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    const open = this.all.splice(0);
    this.idle.length = 0;
    await Promise.all(open.map((c) => c.db.destroy()));
  }

  private acquire(): Promise<SnapshotConnection> {
    if (this.closed) return Promise.reject(new Error("the store is closed"));
    const free = this.idle.pop();
    if (free !== undefined) return Promise.resolve(free);
    if (this.all.length < this.max) return Promise.resolve(this.open());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(connection: SnapshotConnection): void {
    if (this.closed) return;
    const next = this.waiting.shift();
    if (next !== undefined) next(connection);
    else this.idle.push(connection);
  }

  private open(): SnapshotConnection {
    const file = new BetterSqlite3(this.path);
    file.pragma("busy_timeout = 10000");
    file.pragma("query_only = ON");
    file.pragma(`cache_size = ${this.cacheKib}`);
    const connection = { db: new Kysely<Schema>({ dialect: new SqliteDialect({ database: cachingStatements(file) }) }), file };
    this.all.push(connection);
    return connection;
  }
}
