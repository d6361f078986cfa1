import { sql } from "kysely";
import type { Backend, Executor } from "../store/db.js";

export interface BucketTake {
  readonly keyId: string;
  /** How many of the requested tokens were taken. */
  readonly granted: number;
  /** Tokens left in the bucket after the take (below 1 when some were refused). */
  readonly tokens: number;
}

/**
 * The shared token buckets (table of migrations 13 and 16). One statement takes tokens for
 * several keys atomically: a key's first take inserts a full bucket less what it takes; later ones
 * update the row, whose lock serialises concurrent takes of one key from every process, refilling
 * by the time elapsed on the database's clock (one clock for every process, whatever their hosts
 * say) and taking as many of the requested tokens as are whole. In the update, `excluded` is the
 * proposed row: its updated_ms is the statement's "now", its granted column the tokens requested.
 * Keys go in a fixed order, so two statements locking the same keys cannot deadlock.
 */
export class RateLimitStore {
  constructor(
    private readonly db: Executor,
    private readonly backend: Backend,
  ) {}

  async take(requests: ReadonlyMap<string, number>, capacity: number, tokensPerMs: number): Promise<BucketTake[]> {
    const keys = [...requests.keys()].sort();
    if (keys.length === 0) return [];
    if (this.backend === "sqlite") return this.takeSqlite(keys, requests, capacity, tokensPerMs);
    const values = sql.join(keys.map((k) => sql`(${k}, ${Math.min(capacity, requests.get(k) ?? 1)}::int)`));
    const refilled = sql`LEAST(${capacity}::float8, b.tokens + GREATEST(0, excluded.updated_ms - b.updated_ms) * ${tokensPerMs}::float8)`;
    const result = await sql<{ key_id: string; tokens: number; granted: number }>`
      INSERT INTO rate_limit_buckets AS b (key_id, tokens, updated_ms, granted)
      SELECT v.key_id, ${capacity}::float8 - v.n, extract(epoch FROM clock_timestamp()) * 1000, v.n
      FROM (VALUES ${values}) AS v (key_id, n) ORDER BY v.key_id
      ON CONFLICT (key_id) DO UPDATE SET
        tokens = ${refilled} - LEAST(excluded.granted, FLOOR(${refilled})),
        updated_ms = GREATEST(b.updated_ms, excluded.updated_ms),
        granted = LEAST(excluded.granted, FLOOR(${refilled}))
      RETURNING key_id, tokens, granted`.execute(this.db);
    return result.rows.map((r) => ({ keyId: r.key_id, granted: Number(r.granted), tokens: Number(r.tokens) }));
  }

  /**
   * SQLite: the same statement in SQLite's words. Its processes share one host, so the clock is
   * the caller's; the write lock serialises the takes of every process (one short transaction).
   * `WHERE true` lets the parser tell the upsert's ON CONFLICT from a join's ON.
   */
  private async takeSqlite(keys: readonly string[], requests: ReadonlyMap<string, number>, capacity: number, tokensPerMs: number): Promise<BucketTake[]> {
    const values = sql.join(keys.map((k) => sql`(${k}, ${Math.min(capacity, requests.get(k) ?? 1)})`));
    const refilled = sql`min(${capacity}, b.tokens + max(0, excluded.updated_ms - b.updated_ms) * ${tokensPerMs})`;
    const result = await sql<{ key_id: string; tokens: number; granted: number }>`
      INSERT INTO rate_limit_buckets AS b (key_id, tokens, updated_ms, granted)
      SELECT v.column1, ${capacity} - v.column2, ${Date.now()}, v.column2
      FROM (VALUES ${values}) AS v WHERE true ORDER BY v.column1
      ON CONFLICT (key_id) DO UPDATE SET
        tokens = ${refilled} - min(excluded.granted, CAST(${refilled} AS INTEGER)),
        updated_ms = max(b.updated_ms, excluded.updated_ms),
        granted = min(excluded.granted, CAST(${refilled} AS INTEGER))
      RETURNING key_id, tokens, granted`.execute(this.db);
    return result.rows.map((r) => ({ keyId: r.key_id, granted: Number(r.granted), tokens: Number(r.tokens) }));
  }
}
