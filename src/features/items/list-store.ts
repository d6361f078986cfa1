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
    const total = (await this.keptTotal(v, foldThreads)) ?? Number((await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst())?.n ?? 0);
    const rows = await base.selectAll("ci").orderBy("ci.created_at", "desc").orderBy("ci.source_id").limit(limit).offset(offset).execute();
    return { total, rows };
  }

  /**
   * On SQLite, the total of a list that filters by scope alone, from the counts its triggers keep
   * (migration 18), less the items past their expiry and not yet purged; null when the list
   * filters further (the caller counts the rows). Every field of Visibility is named here, so a
   * new filter cannot be left out of the decision silently.
   */
  private async keptTotal(v: Visibility, foldThreads: boolean): Promise<number | null> {
    const {
      orgId,
      databaseId,
      collection,
      collections,
      corpora,
      now,
      ids,
      metadata,
      additional,
      sourceFields,
      principals,
      excludeConnectorItems,
      search,
      ...rest
    } = v;
    const unknown: Record<string, never> = rest;
    const filtersFurther =
      foldThreads ||
      ids !== null ||
      principals !== null ||
      excludeConnectorItems === true ||
      (search ?? []).length > 0 ||
      Object.keys(metadata).length > 0 ||
      Object.keys(additional).length > 0 ||
      Object.values(sourceFields).some((value) => value !== undefined) ||
      Object.keys(unknown).length > 0;
    if (this.backend !== "sqlite" || filtersFurther || corpora.length === 0) return null;
    const scope = collections && collections.length > 0 ? collections : [collection];
    const { rows } = await sql<{ kept: number | null; expired: number }>`
      SELECT
        (SELECT sum(items) FROM context_item_counts
          WHERE org_id = ${orgId} AND database_id = ${databaseId} AND corpus IN (${sql.join([...corpora])}) AND collection IN (${sql.join([...scope])})) AS kept,
        (SELECT count(*) FROM context_items INDEXED BY context_items_expiring
          WHERE database_id = ${databaseId} AND corpus IN (${sql.join([...corpora])}) AND collection IN (${sql.join([...scope])})
            AND expires_at <= ${now} AND org_id = ${orgId}) AS expired`.execute(this.db);
    const row = rows[0];
    return row === undefined ? null : Number(row.kept ?? 0) - Number(row.expired);
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
