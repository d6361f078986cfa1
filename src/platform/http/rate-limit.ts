/**
 * Per-key token bucket: `perMinute` tokens, refilled continuously. In-process state, so
 * with N API processes a key gets up to N times the budget; the limit protects each
 * process, and a shared limiter can replace this behind the same method.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when the request may proceed, otherwise the seconds to wait. */
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
    return Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
  }
}
