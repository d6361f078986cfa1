import type { ItemRow } from "./store.js";
import type { Visibility } from "./item-visibility.js";
import type { ListStore } from "./list-store.js";

const MAX_NESTING = 4;

export interface FoldedThread {
  comments: ItemRow[];
  truncated: boolean;
}

/**
 * The folded items under each root row of a page (replies to replies included), newest
 * first, at most `max` per root.
 */
export async function commentsOf(list: ListStore, v: Visibility, roots: readonly ItemRow[], max: number): Promise<Map<string, FoldedThread>> {
  const rootOfKey = new Map<string, string>();
  for (const root of roots) {
    for (const key of [root.source_id, root.thread_id, root.app_external_id]) if (key !== null) rootOfKey.set(key, root.id);
  }
  const found = new Map<string, { row: ItemRow; rootId: string }>();
  let parentKeys = roots.map((r) => r.source_id);
  const threadKeys = [...rootOfKey.keys()];
  for (let depth = 0; depth < MAX_NESTING && parentKeys.length > 0; depth++) {
    const keys = parentKeys;
    const rows = await list.foldedUnder(v, keys, depth === 0 ? threadKeys : []);
    parentKeys = [];
    for (const row of rows) {
      if (found.has(row.id) || roots.some((r) => r.id === row.id)) continue;
      const viaParent = row.parent_id === null ? undefined : (rootOfKey.get(row.parent_id) ?? findRootOf(found, row.parent_id));
      const rootId = viaParent ?? (row.thread_id === null ? undefined : rootOfKey.get(row.thread_id));
      if (rootId === undefined) continue;
      found.set(row.id, { row, rootId });
      parentKeys.push(row.source_id);
    }
  }
  const out = new Map<string, FoldedThread>(roots.map((r) => [r.id, { comments: [], truncated: false }]));
  for (const { row, rootId } of found.values()) out.get(rootId)?.comments.push(row);
  for (const thread of out.values()) {
    thread.comments.sort((x, y) => (y.item_timestamp ?? 0) - (x.item_timestamp ?? 0) || x.source_id.localeCompare(y.source_id));
    thread.truncated = thread.comments.length > max;
    thread.comments = thread.comments.slice(0, max);
  }
  return out;
}

function findRootOf(found: ReadonlyMap<string, { row: ItemRow; rootId: string }>, sourceId: string): string | undefined {
  for (const { row, rootId } of found.values()) if (row.source_id === sourceId) return rootId;
  return undefined;
}
