import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { Visibility } from "./item-visibility.js";
import type { ItemRow } from "./store.js";
import { visibleItem } from "./visibility-store.js";

/** Item kinds that fold under their thread root when a list asks for `fold_threads`. */
const FOLDABLE = ["comment", "message"] as const;

/**
 * A comment or message item folds when another visible item anchors it: its parent
 * (`parent_id` = that item's id), the thread's explicit root (its id or external id is the
 * `thread_id`, as a Slack root's `ts` is its replies' `thread_ts`), or, in a thread without an
 * explicit root, an earlier item of the same thread. An explicit root never folds into its own
 * thread, so a thread always keeps one visible row.
 */
function foldedItem(backend: Backend, alias: string, v: Visibility): RawBuilder<SqlBool> {
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

/** The reads of POST /context/list: pages of visible items, and the folded items under a page's rows. */
export class ListStore {
  constructor(
    private readonly db: Executor,
    private readonly backend: Backend,
  ) {}

  /** One page of the visible items, newest first, with the total (folded items left out when `foldThreads`). */
  async page(v: Visibility, foldThreads: boolean, limit: number, offset: number): Promise<{ total: number; rows: ItemRow[] }> {
    const base = this.db
      .selectFrom("context_items as ci")
      .where(visibleItem(this.backend, "ci", v))
      .where(foldThreads ? sql<SqlBool>`NOT ${foldedItem(this.backend, "ci", v)}` : sql<SqlBool>`1 = 1`);
    const counted = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
    const rows = await base.selectAll("ci").orderBy("ci.created_at", "desc").orderBy("ci.source_id").limit(limit).offset(offset).execute();
    return { total: Number(counted?.n ?? 0), rows };
  }

  /** Visible folded items whose parent is one of `parentKeys` or (when given) whose thread is one of `threadKeys`. */
  async foldedUnder(v: Visibility, parentKeys: readonly string[], threadKeys: readonly string[]): Promise<ItemRow[]> {
    return this.db
      .selectFrom("context_items as c")
      .selectAll("c")
      .where(visibleItem(this.backend, "c", v))
      .where(foldedItem(this.backend, "c", v))
      .where((eb) => eb.or([eb("c.parent_id", "in", [...parentKeys]), ...(threadKeys.length > 0 ? [eb("c.thread_id", "in", [...threadKeys])] : [])]))
      .execute();
  }
}
