import type { Store } from "../store/db.js";
import { Coalescer } from "../util/coalescer.js";
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
 * The per-key budget shared by every process on one store: takes are gathered (group commit,
 * the takes of one event-loop turn and those arriving while a statement runs) into one atomic
 * statement for all their keys (RateLimitStore), so concurrent requests of one key cost one row
 * update, not one each queued on that row's lock. When the statement fails (the store refuses
 * writes, a failover), the requests are limited by this process's own bucket instead, so reads
 * keep their budget-guarded answers while the store cannot be written.
 */
class SharedRateLimiter implements RequestLimiter {
  private lastFallbackLog = 0;
  private readonly takes: Coalescer<string, number>;

  constructor(
    private readonly store: Store,
    private readonly perMinute: number,
    private readonly fallback: RateLimiter,
    private readonly logger: WarnLogger,
  ) {
    this.takes = new Coalescer((keyIds) => this.takeShared(keyIds));
  }

  async take(keyId: string): Promise<number> {
    if (this.perMinute <= 0) return 0;
    return this.takes.submit(keyId);
  }

  private async takeShared(keyIds: readonly string[]): Promise<number[]> {
    const tokensPerMs = this.perMinute / 60_000;
    const requested = new Map<string, number>();
    for (const k of keyIds) requested.set(k, (requested.get(k) ?? 0) + 1);
    try {
      const taken = new Map(
        (await new RateLimitStore(this.store.db, this.store.backend).take(requested, this.perMinute, tokensPerMs)).map((t) => [t.keyId, t]),
      );
      // The first `granted` requests of a key (in arrival order) proceed; the others wait for a token.
      const used = new Map<string, number>();
      return keyIds.map((k) => {
        const t = taken.get(k);
        const n = used.get(k) ?? 0;
        used.set(k, n + 1);
        if (t === undefined) throw new Error("rate limit bucket: no row returned for a key");
        return n < t.granted ? 0 : secondsUntilToken(t.tokens, tokensPerMs);
      });
    } catch (err) {
      const at = Date.now();
      if (at - this.lastFallbackLog >= FALLBACK_LOG_INTERVAL_MS) {
        this.lastFallbackLog = at;
        this.logger.warn({ err }, "the shared rate limit could not be taken from the store; limiting in this process meanwhile");
      }
      return keyIds.map((k) => this.fallback.take(k));
    }
  }
}

/**
 * PostgreSQL, or SQLite shared by several processes (`sharedFile`, PROCESSES above 1): the
 * buckets in the store; SQLite in one process: the in-process bucket.
 */
export function createRateLimiter(store: Store, perMinute: number, logger: WarnLogger, sharedFile = false): RequestLimiter {
  const local = new RateLimiter(perMinute);
  return store.backend === "postgres" || sharedFile ? new SharedRateLimiter(store, perMinute, local, logger) : local;
}
