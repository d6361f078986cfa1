/**
 * How a provider call failed, classified once at the client so the engine can act on it:
 * - `auth`: the credentials were refused (revoked token, bad grant) -> needs_reauth, no retries;
 * - `rate_limited`: come back at `retryAtMs` (Retry-After, x-ratelimit-reset) -> the job is
 *   rescheduled at that time, never slept on;
 * - `not_found`: the resource does not exist or is not visible to the credentials;
 * - `bad_cursor`: a discover cursor the caller sent was not issued here, or the provider refused
 *   it: the caller's input, answered 400 (never a gateway error);
 * - `failed`: anything else (5xx, network, malformed answer) -> last_error with backoff.
 */
export type ProviderErrorKind = "auth" | "rate_limited" | "not_found" | "bad_cursor" | "failed";

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly retryAtMs: number | null = null,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

/**
 * `Retry-After` as seconds or an HTTP date, as an absolute time; null when absent or unreadable.
 */
export function retryAfterAt(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return nowMs + Math.ceil(seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(nowMs, date);
}

/** Runs a fetch, turning network failures and aborts into ProviderError `failed`. */
export async function providerFetch(provider: string, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ProviderError("failed", `${provider} could not be reached (${new URL(url).host}): ${reason}`);
  }
}

/** Reads a JSON body; a non-JSON answer is a provider failure, not a crash. */
export async function jsonBody(provider: string, res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError("failed", `${provider} answered HTTP ${res.status} with a body that is not JSON`);
  }
}

/** The call's answer, or null when the provider says the object does not exist (or is not visible). */
export async function nullIfNotFound<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ProviderError && err.kind === "not_found") return null;
    throw err;
  }
}
