import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Executor, Backend } from "../../platform/store/db.js";
import type { ItemRow } from "./store.js";
import { visibleItem, type Visibility } from "./item-visibility.js";

/** Item kinds that fold under their thread root when a list asks for `fold_threads`. */
const FOLDABLE = ["comment", "message"] as const;
const MAX_NESTING = 4;

/**
 * A comment or message item folds when another visible item anchors it: its parent
 * (`parent_id` = that item's id), the thread's explicit root (its id or external id is the
 * `thread_id`, as a Slack root's `ts` is its replies' `thread_ts`), or, in a thread without an
 * explicit root, an earlier item of the same thread. An explicit root never folds into its own
 * thread, so a thread always keeps one visible row.
 */
export function foldedItem(backend: Backend, alias: string, v: Visibility): RawBuilder<SqlBool> {
  const a = (name: string) => sql.ref(`${alias}.${name}`);
  const r = (name: string) => sql.ref(`fold_root.${name}`);
  const isExplicitRoot = sql`(${a("source_id")} = ${a("thread_id")} OR ${a("app_external_id")} = ${a("thread_id")})`;
  return sql<SqlBool>`(${a("corpus")} = 'knowledge' AND ${a("app_kind")} IN (${sql.join([...FOLDABLE])}) AND EXISTS (
    SELECT 1 FROM context_items fold_root
    WHERE ${visibleItem(backend, "fold_root", v)} AND ${r("id")} <> ${a("id")} AND (
      ${r("source_id")} = ${a("parent_id")}
      OR (${a("thread_id")} IS NOT NULL AND (
        ${r("source_id")} = ${a("thread_id")} OR ${r("app_external_id")} = ${a("thread_id")}
        OR (${r("thread_id")} = ${a("thread_id")} AND NOT ${isExplicitRoot} AND (
          ${r("item_timestamp")} < ${a("item_timestamp")}
          OR (${r("item_timestamp")} = ${a("item_timestamp")} AND ${r("source_id")} < ${a("source_id")}))))))))`;
}

export interface FoldedThread {
  comments: ItemRow[];
  truncated: boolean;
}

/**
 * The folded items under each root row of a page (replies to replies included), newest
 * first, at most `max` per root.
 */
export async function commentsOf(db: Executor, backend: Backend, v: Visibility, roots: readonly ItemRow[], max: number): Promise<Map<string, FoldedThread>> {
  const rootOfKey = new Map<string, string>();
  for (const root of roots) {
    for (const key of [root.source_id, root.thread_id, root.app_external_id]) if (key !== null) rootOfKey.set(key, root.id);
  }
  const found = new Map<string, { row: ItemRow; rootId: string }>();
  let parentKeys = roots.map((r) => r.source_id);
  const threadKeys = [...rootOfKey.keys()];
  for (let depth = 0; depth < MAX_NESTING && parentKeys.length > 0; depth++) {
    const keys = parentKeys;
    const rows = await db
      .selectFrom("context_items as c")
      .selectAll("c")
      .where(visibleItem(backend, "c", v))
      .where(foldedItem(backend, "c", v))
      .where((eb) => eb.or([eb("c.parent_id", "in", keys), ...(depth === 0 ? [eb("c.thread_id", "in", threadKeys)] : [])]))
      .execute();
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
