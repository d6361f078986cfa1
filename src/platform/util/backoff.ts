/**
 * The one retry delay of the codebase (jobs, webhook deliveries, connector syncs, embedding
 * requests, recording a job's failure). Exponential backoff with full jitter: `attempt` counts
 * from 1, and the delay is drawn uniformly from [base/2, min(cap, base * 2^(attempt-1))], so
 * retries of many failed callers spread out instead of arriving together, while the first retry
 * is never immediate.
 */
export function backoffDelay(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  const floor = Math.min(ceiling, baseMs / 2);
  return Math.round(floor + (ceiling - floor) * random());
}
