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

/**
 * The code of a connector's last failed sync (`last_error_code`; empty after a success):
 * - `PROVIDER_ERROR`: the provider failed (5xx, network, malformed answer); retried with backoff;
 * - `PROVIDER_NOT_FOUND`: the provider says what the sync reads does not exist or is hidden;
 * - `PROVIDER_CURSOR_REJECTED`: the provider refused the sync's cursor;
 * - `CREDENTIALS_UNREADABLE`: the stored credentials cannot be opened (the secret key changed);
 * - `PROVIDER_UNSUPPORTED`: this service has no such provider (any more).
 * Refused credentials are not among them: they set `needs_reauth` (lifecycle `reconnect`).
 */
export type SyncErrorCode = "PROVIDER_ERROR" | "PROVIDER_NOT_FOUND" | "PROVIDER_CURSOR_REJECTED" | "CREDENTIALS_UNREADABLE" | "PROVIDER_UNSUPPORTED";

export const SYNC_ERROR_CODES: Record<Exclude<ProviderErrorKind, "auth" | "rate_limited">, SyncErrorCode> = {
  failed: "PROVIDER_ERROR",
  not_found: "PROVIDER_NOT_FOUND",
  bad_cursor: "PROVIDER_CURSOR_REJECTED",
};

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
