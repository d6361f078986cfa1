import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/**
 * Lowers the scheduling priority of the calling thread (a worker thread doing background work:
 * ingestion's embedding batches, graph extraction) to `nice`, so that when the cores are busy
 * the thread that answers requests and the query lanes run first and indexing takes what is
 * left. Linux only, where nice values are per thread (/proc/thread-self names the thread id);
 * elsewhere, or if the call is refused, it does nothing. Returns whether it applied.
 */
export function lowerThreadPriority(nice: number): boolean {
  if (nice <= 0 || process.platform !== "linux") return false;
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, Math.min(19, nice));
    return true;
  } catch {
    // Refused (a sandbox without /proc, a policy on priorities): the thread keeps the default, which only costs latency.
    return false;
  }
}
