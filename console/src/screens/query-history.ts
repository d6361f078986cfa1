// The query playground's history: the last queries run in this tab, kept in sessionStorage (like
// everything the console remembers, gone when the tab closes), newest first.
import type { QueryParams } from "./query-form.js";

const STORAGE_KEY = "context-store.query-history";
/** Enough to find this session's queries again; each entry is a few hundred bytes. */
const MAX_ENTRIES = 20;

export interface HistoryEntry {
  readonly database: string;
  readonly collection: string | null;
  readonly params: QueryParams;
  /** When it last ran (epoch ms). */
  readonly at: number;
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  const params = e.params as Record<string, unknown> | null | undefined;
  return typeof e.database === "string" && typeof e.at === "number" && typeof params === "object" && params !== null && typeof params.query === "string";
}

/** What is stored, ignoring anything unreadable (an older console's shape, a hand edit). */
export function readHistory(): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    // not JSON (a hand edit): the history starts again rather than breaking the screen
    return [];
  }
}

const sameQuery = (a: HistoryEntry, b: HistoryEntry): boolean =>
  a.database === b.database && a.collection === b.collection && JSON.stringify(a.params) === JSON.stringify(b.params);

/** Records a query that ran: the same query again moves to the top instead of repeating. */
export function addToHistory(entry: HistoryEntry): HistoryEntry[] {
  const next = [entry, ...readHistory().filter((e) => !sameQuery(e, entry))].slice(0, MAX_ENTRIES);
  window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  return next;
}

export function clearHistory(): void {
  window.sessionStorage.removeItem(STORAGE_KEY);
}
