/**
 * A sliding-window counter: events of the current fixed window plus those of the previous one,
 * weighted by how much of it still lies within the last `windowMs`. Two integers per key, where
 * a log of timestamps would hold one per event, and within a few percent of the exact count
 * (the previous window's events are taken as spread evenly).
 */
export interface WindowCounts {
  /** Start of the current window (epoch ms, a multiple of the window's length). */
  readonly windowStart: number;
  readonly previous: number;
  readonly current: number;
}

/** The counts as of `now`: moved on into the window `now` falls in (a window or more later, older ones drop). */
export function rolled(counts: WindowCounts | undefined, now: number, windowMs: number): WindowCounts {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  if (counts === undefined || windowStart >= counts.windowStart + 2 * windowMs) return { windowStart, previous: 0, current: 0 };
  if (windowStart === counts.windowStart + windowMs) return { windowStart, previous: counts.current, current: 0 };
  return counts;
}

/** The counts with one more event at `now`. */
export function counted(counts: WindowCounts | undefined, now: number, windowMs: number): WindowCounts {
  const r = rolled(counts, now, windowMs);
  return { ...r, current: r.current + 1 };
}

/** Events within the last `windowMs` before `now`, estimated. */
export function estimate(counts: WindowCounts | undefined, now: number, windowMs: number): number {
  const r = rolled(counts, now, windowMs);
  const elapsed = (now - r.windowStart) / windowMs;
  return r.previous * (1 - elapsed) + r.current;
}

/**
 * When the estimate falls below `budget` again, with no further events (epoch ms): `now` when it
 * is below already. Within the current window only the previous window's share decays; once the
 * current window is over its events decay in turn.
 */
export function belowBudgetAt(counts: WindowCounts | undefined, now: number, budget: number, windowMs: number): number {
  const r = rolled(counts, now, windowMs);
  if (estimate(r, now, windowMs) < budget) return now;
  if (r.current < budget) return r.windowStart + windowMs * (1 - (budget - r.current) / r.previous);
  return r.windowStart + windowMs + windowMs * (1 - budget / r.current);
}
