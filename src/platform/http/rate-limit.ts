import type { Store } from "../store/db.js";
import { RateLimitStore } from "./rate-limit-store.js";

/** The per-key request budget applied at authentication: 0 when the request may proceed, otherwise the seconds to wait. */
export interface RequestLimiter {
  take(keyId: string): number | Promise<number>;
}

/** Seconds until a bucket holding `tokens` has a whole token again. */
const secondsUntilToken = (tokens: number, tokensPerMs: number): number => Math.max(1, Math.ceil((1 - tokens) / tokensPerMs / 1000));

/**
 * Per-key token bucket in this process: `perMinute` tokens, refilled continuously. The limit of
 * the embedded store (one process) and the fallback of the shared one.
 */
class RateLimiter implements RequestLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): number {
    if (this.perMinute <= 0) return 0;
    const at = this.now();
    const ratePerMs = this.perMinute / 60_000;
    const bucket = this.buckets.get(key) ?? { tokens: this.perMinute, at };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (at - bucket.at) * ratePerMs);
    bucket.at = at;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 100_000) this.buckets.clear();
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return secondsUntilToken(bucket.tokens, ratePerMs);
  }
}

interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/** How often a failing shared limiter is reported (each failure falls back; one line per interval says so). */
const FALLBACK_LOG_INTERVAL_MS = 60_000;

/**
 * The per-key budget shared by every process on one PostgreSQL: one atomic statement per request
 * (RateLimitStore). When that statement fails (the store refuses writes, a failover), the request
 * is limited by this process's own bucket instead, so reads keep their budget-guarded answers
 * while the store cannot be written.
 */
class SharedRateLimiter implements RequestLimiter {
  private lastFallbackLog = 0;

  constructor(
    private readonly store: Store,
    private readonly perMinute: number,
    private readonly fallback: RateLimiter,
    private readonly logger: WarnLogger,
  ) {}

  async take(keyId: string): Promise<number> {
    if (this.perMinute <= 0) return 0;
    const tokensPerMs = this.perMinute / 60_000;
    try {
      const taken = await new RateLimitStore(this.store.db).take(keyId, this.perMinute, tokensPerMs);
      return taken.granted ? 0 : secondsUntilToken(taken.tokens, tokensPerMs);
    } catch (err) {
      const at = Date.now();
      if (at - this.lastFallbackLog >= FALLBACK_LOG_INTERVAL_MS) {
        this.lastFallbackLog = at;
        this.logger.warn({ err }, "the shared rate limit could not be taken from the store; limiting in this process meanwhile");
      }
      return this.fallback.take(keyId);
    }
  }
}

/** PostgreSQL: the shared buckets; SQLite (one process): the in-process bucket. */
export function createRateLimiter(store: Store, perMinute: number, logger: WarnLogger): RequestLimiter {
  const local = new RateLimiter(perMinute);
  return store.backend === "postgres" ? new SharedRateLimiter(store, perMinute, local, logger) : local;
}
