import type { SyncWindow } from "./provider.js";

/**
 * How far back an incremental pull re-reads before its committed cursor: objects whose update time
 * was written just before a cursor was taken (clock skew, eventual consistency at the provider) are
 * caught by the next pull; re-read objects cost a hash comparison, not an embedding.
 */
const PULL_OVERLAP_MS = 30 * 60_000;

/**
 * The pull window of providers whose cursors are ISO timestamps (GitHub, Linear, Notion, Gmail):
 * from the lookback start on the first pull, else from the cursor less the overlap, to now.
 */
export function isoWindow(cursor: string, lookbackStartMs: number, nowMs: number): SyncWindow {
  const start = cursor === "" ? lookbackStartMs : Math.max(lookbackStartMs, Date.parse(cursor) - PULL_OVERLAP_MS);
  return { start: new Date(start).toISOString(), end: new Date(nowMs).toISOString(), since: cursor };
}
