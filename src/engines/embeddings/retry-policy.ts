export interface RetryPolicy {
  /** Retries after the first attempt; default 3. */
  maxRetries: number;
  /** Ceiling of the first backoff; doubles per retry, with full jitter (platform/util/backoff.ts); default 500 ms. */
  baseDelayMs: number;
  /** Cap for one backoff and for a server's Retry-After; default 20 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000 });

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
