// Reading items' indexing status through GET /context/status, and waiting for it within a bound.
import type { ApiClient } from "../client/api-client.js";
import type { ToolScope } from "./tool-scope.js";

export interface IndexingStatus {
  readonly id: string;
  readonly indexing_status: string;
  readonly error_code: string;
  readonly message: string;
}

/** `failed` is listed by one schema enumeration and ends an item like `errored` (see the spec). */
const TERMINAL = new Set(["completed", "success", "errored", "failed"]);

const isTerminal = (status: IndexingStatus): boolean => TERMINAL.has(status.indexing_status);

export async function readStatuses(api: ApiClient, scope: ToolScope, type: "knowledge" | "memory" | "all", ids: readonly string[]): Promise<IndexingStatus[]> {
  // One JSON array value: the route splits plain values at commas, and an id may hold one.
  const data = await api.call(api.raw.GET("/context/status", { params: { query: { ...scope, type, ids: JSON.stringify(ids) } } }));
  return data.statuses;
}

// Polls start quick (a short note is indexed within a second) and slow down to one a second, well
// inside the per-key rate limit however long the wait.
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 1000;

/**
 * Polls until every id is terminal or the time is up, and answers the last statuses with whether
 * they all finished. The bound keeps a tool call from holding a client past its own time-out.
 */
export async function waitForStatuses(
  api: ApiClient,
  scope: ToolScope,
  type: "knowledge" | "memory",
  ids: readonly string[],
  timeoutMs: number,
  onPoll?: (statuses: readonly IndexingStatus[]) => Promise<void>,
): Promise<{ statuses: IndexingStatus[]; finished: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = FIRST_POLL_MS; ; pause = Math.min(MAX_POLL_MS, pause * 2)) {
    const statuses = await readStatuses(api, scope, type, ids);
    await onPoll?.(statuses);
    if (statuses.every(isTerminal)) return { statuses, finished: true };
    const left = deadline - Date.now();
    if (left <= 0) return { statuses, finished: false };
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
  }
}

export function statusLine(s: IndexingStatus): string {
  return s.error_code ? `${s.id}: ${s.indexing_status} (${s.error_code}: ${s.message})` : `${s.id}: ${s.indexing_status}`;
}
