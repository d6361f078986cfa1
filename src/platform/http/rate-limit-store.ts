import { sql } from "kysely";
import type { Executor } from "../store/db.js";

export interface BucketTake {
  /** Whether this request got a token. */
  readonly granted: boolean;
  /** Tokens left in the bucket after the take (below 1 when refused). */
  readonly tokens: number;
}

/**
 * The shared token buckets on PostgreSQL (table of migration 13). One statement per request takes
 * a token atomically: the insert creates a full bucket less one; on conflict the row lock
 * serialises concurrent takes of the same key from every process, and the update refills by the
 * time elapsed on the database's clock (one clock for every process, whatever their hosts say),
 * then takes a token when one is there. `excluded.updated_ms` is the statement's "now", computed once.
 */
export class RateLimitStore {
  constructor(private readonly db: Executor) {}

  async take(keyId: string, capacity: number, tokensPerMs: number): Promise<BucketTake> {
    const refilled = sql`LEAST(${capacity}::float8, b.tokens + GREATEST(0, excluded.updated_ms - b.updated_ms) * ${tokensPerMs}::float8)`;
    const result = await sql<{ tokens: number; granted: boolean }>`
      INSERT INTO rate_limit_buckets AS b (key_id, tokens, updated_ms, granted)
      VALUES (${keyId}, ${capacity - 1}::float8, extract(epoch FROM clock_timestamp()) * 1000, true)
      ON CONFLICT (key_id) DO UPDATE SET
        tokens = ${refilled} - CASE WHEN ${refilled} >= 1 THEN 1 ELSE 0 END,
        updated_ms = GREATEST(b.updated_ms, excluded.updated_ms),
        granted = ${refilled} >= 1
      RETURNING tokens, granted`.execute(this.db);
    const row = result.rows[0];
    if (row === undefined) throw new Error("rate limit bucket: the statement returned no row");
    return { granted: row.granted, tokens: Number(row.tokens) };
  }
}
