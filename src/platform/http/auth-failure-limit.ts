import type { Store } from "../store/db.js";
import { AuthFailureStore } from "./auth-failure-store.js";
import { belowBudgetAt, counted, estimate, type WindowCounts } from "./sliding-window.js";

/**
 * The budget of failed authentications per client address (AUTH_FAILURES_PER_MINUTE), over a
 * sliding minute. An address past it is refused (429) before its key is looked up, so that
 * guessing keys costs the server nothing and is limited to the budget; an address's own
 * failures never limit another address, and successful requests are not counted.
 */
export interface AuthFailureLimiter {
  /** Seconds `address` must wait before a key it presents is looked up again; 0 when it may now. */
  blockedFor(address: string): number;
  /**
   * Counts a failed authentication of `address`. Returns the seconds to wait when this attempt
   * was itself beyond the budget (another process had counted the rest: answer 429), else 0
   * (answer 401; the address may be blocked from the next request on).
   */
  failed(address: string): number | Promise<number>;
}

const WINDOW_MS = 60_000;
/** Addresses tracked in memory at most; past it the ones with nothing left in their window go first. */
const MAX_TRACKED = 50_000;

const secondsUntil = (at: number, now: number): number => Math.max(1, Math.ceil((at - now) / 1000));

function evictIdle<V>(entries: Map<string, V>, idle: (v: V) => boolean): void {
  if (entries.size <= MAX_TRACKED) return;
  for (const [address, v] of entries) if (idle(v)) entries.delete(address);
  // Still full: an attacker with more addresses than this; start over rather than grow without bound.
  if (entries.size > MAX_TRACKED) entries.clear();
}

/** In this process: the embedded store's limiter (one process), and the shared one's fallback. */
class LocalAuthFailureLimiter implements AuthFailureLimiter {
  private readonly windows = new Map<string, WindowCounts>();

  constructor(
    private readonly budget: number,
    private readonly now: () => number,
  ) {}

  blockedFor(address: string): number {
    const counts = this.windows.get(address);
    if (counts === undefined) return 0;
    const at = this.now();
    return estimate(counts, at, WINDOW_MS) >= this.budget ? secondsUntil(belowBudgetAt(counts, at, this.budget, WINDOW_MS), at) : 0;
  }

  failed(address: string): number {
    const at = this.now();
    const counts = counted(this.windows.get(address), at, WINDOW_MS);
    this.windows.set(address, counts);
    evictIdle(this.windows, (c) => estimate(c, at, WINDOW_MS) < 1);
    return estimate(counts, at, WINDOW_MS) > this.budget ? secondsUntil(belowBudgetAt(counts, at, this.budget, WINDOW_MS), at) : 0;
  }
}

interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/** How often a failing shared count is reported, and how often stale windows are removed from the store. */
const HOUSEKEEPING_INTERVAL_MS = 60_000;

/**
 * Shared by every process on one store (PostgreSQL, or SQLite with PROCESSES above 1): each
 * failure is counted in the store (AuthFailureStore), and a process that learns an address is past
 * the budget refuses it without asking the store until its window has slid below it. Requests
 * pay nothing for this: only failures touch the store. When the store cannot count (it refuses
 * writes, a failover), this process's own windows limit meanwhile.
 */
class SharedAuthFailureLimiter implements AuthFailureLimiter {
  /** Addresses known to be past the budget, until when (epoch ms). */
  private readonly blockedUntil = new Map<string, number>();
  private lastFallbackLog = 0;
  private lastPrune = 0;

  constructor(
    private readonly store: Store,
    private readonly budget: number,
    private readonly now: () => number,
    private readonly fallback: LocalAuthFailureLimiter,
    private readonly logger: WarnLogger,
  ) {}

  blockedFor(address: string): number {
    const at = this.now();
    const until = this.blockedUntil.get(address);
    if (until !== undefined && until > at) return secondsUntil(until, at);
    if (until !== undefined) this.blockedUntil.delete(address);
    return this.fallback.blockedFor(address);
  }

  async failed(address: string): Promise<number> {
    const at = this.now();
    const windows = new AuthFailureStore(this.store.db, this.store.backend);
    let counts: WindowCounts;
    try {
      counts = await windows.count(address, at, WINDOW_MS);
    } catch (err) {
      if (at - this.lastFallbackLog >= HOUSEKEEPING_INTERVAL_MS) {
        this.lastFallbackLog = at;
        this.logger.warn({ err }, "failed authentications could not be counted in the store; counting in this process meanwhile");
      }
      return this.fallback.failed(address);
    }
    if (at - this.lastPrune >= HOUSEKEEPING_INTERVAL_MS) {
      this.lastPrune = at;
      windows.prune(at, WINDOW_MS).catch((err: unknown) => this.logger.warn({ err }, "stale failed-authentication windows could not be removed"));
    }
    const count = estimate(counts, at, WINDOW_MS);
    if (count < this.budget) return 0;
    this.blockedUntil.set(address, belowBudgetAt(counts, at, this.budget, WINDOW_MS));
    evictIdle(this.blockedUntil, (until) => until <= at);
    return count > this.budget ? secondsUntil(belowBudgetAt(counts, at, this.budget, WINDOW_MS), at) : 0;
  }
}

/** Limits nothing: AUTH_FAILURES_PER_MINUTE=0. */
const UNLIMITED: AuthFailureLimiter = { blockedFor: () => 0, failed: () => 0 };

/**
 * PostgreSQL, or SQLite shared by several processes (`sharedFile`, PROCESSES above 1): counted in
 * the store; SQLite in one process: in memory. `perMinute` 0 turns the limit off.
 */
export function createAuthFailureLimiter(store: Store, perMinute: number, now: () => number, logger: WarnLogger, sharedFile = false): AuthFailureLimiter {
  if (perMinute <= 0) return UNLIMITED;
  const local = new LocalAuthFailureLimiter(perMinute, now);
  return store.backend === "postgres" || sharedFile ? new SharedAuthFailureLimiter(store, perMinute, now, local, logger) : local;
}
