import { sql, type RawBuilder } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { TablePlan } from "./table-plan.js";

/** A row as the driver returns it (or as it is to be written), column by column. */
export type PlainRow = Record<string, unknown>;

/** Equality conditions on columns, e.g. { org_id, database_id }. */
export type RowFilter = Readonly<Record<string, string>>;

// SQLite binds at most 32,766 parameters per statement, PostgreSQL 65,535.
const MAX_PARAMS = 30_000;
const MAX_ROWS_PER_INSERT = 500;

const refs = (columns: readonly string[]): RawBuilder<unknown> => sql.join(columns.map((c) => sql.ref(c)));

function whereOf(filter: RowFilter, extra: RawBuilder<unknown>[] = []): RawBuilder<unknown> {
  const conditions = [...Object.entries(filter).map(([column, value]) => sql`${sql.ref(column)} = ${value}`), ...extra];
  return conditions.length === 0 ? sql`` : sql`WHERE ${sql.join(conditions, sql` AND `)}`;
}

/**
 * Reads a table's rows matching `filter` page by page, in key order; every page is one query,
 * so a large table never sits in memory whole. Run it inside a snapshot for a consistent copy.
 */
export async function* readPages(db: Executor, plan: TablePlan, filter: RowFilter, pageSize = 1000): AsyncGenerator<PlainRow[]> {
  let after: unknown[] | null = null;
  let offset = 0;
  for (;;) {
    const extra: RawBuilder<unknown>[] = plan.keyset && after !== null ? [sql`(${refs(plan.keys)}) > (${sql.join(after)})`] : [];
    const paging = plan.keyset ? sql`` : sql`OFFSET ${offset}`;
    const { rows }: { rows: PlainRow[] } = await sql<PlainRow>`SELECT * FROM ${sql.table(plan.table)} ${whereOf(filter, extra)}
      ORDER BY ${refs(plan.keys)} LIMIT ${pageSize} ${paging}`.execute(db);
    if (rows.length === 0) return;
    yield rows;
    const last: PlainRow | undefined = rows[rows.length - 1];
    if (last) after = plan.keys.map((k): unknown => last[k]);
    offset += rows.length;
    if (rows.length < pageSize) return;
  }
}

export async function countRows(db: Executor, table: string, filter: RowFilter): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)} ${whereOf(filter)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** How an insert treats a row whose key is already there. */
export type OnConflict =
  { readonly kind: "fail" } | { readonly kind: "skip" } | { readonly kind: "replace"; readonly key: readonly string[]; readonly set: readonly string[] };

/**
 * Inserts rows (all of one shape) in multi-row statements; returns the `returning` columns of
 * every inserted row, in no particular order.
 */
export async function insertRows(
  tx: Executor,
  table: string,
  rows: readonly PlainRow[],
  returning: readonly string[] = [],
  onConflict: OnConflict = { kind: "fail" },
): Promise<PlainRow[]> {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first);
  const perStatement = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMS / columns.length)));
  const conflict =
    onConflict.kind === "fail"
      ? sql``
      : onConflict.kind === "skip"
        ? sql`ON CONFLICT DO NOTHING`
        : sql`ON CONFLICT (${refs(onConflict.key)}) DO UPDATE SET ${sql.join(onConflict.set.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}`;
  const back = returning.length === 0 ? sql`` : sql`RETURNING ${refs(returning)}`;
  const out: PlainRow[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const values = rows.slice(i, i + perStatement).map((row) => sql`(${sql.join(columns.map((c) => row[c] ?? null))})`);
    const result = await sql<PlainRow>`INSERT INTO ${sql.table(table)} (${refs(columns)}) VALUES ${sql.join(values)} ${conflict} ${back}`.execute(tx);
    out.push(...result.rows);
  }
  return out;
}

/** The highest schema migration applied to the store. */
export async function schemaLevel(db: Executor): Promise<number> {
  const { rows } = await sql<{ v: number | string | null }>`SELECT max(version) AS v FROM schema_migrations`.execute(db);
  return Number(rows[0]?.v ?? 0);
}

/** The distinct vector sizes stored (PostgreSQL keeps one HNSW index per size). */
export async function vectorSizes(db: Executor): Promise<number[]> {
  const { rows } = await sql<{ dims: number }>`SELECT DISTINCT dims FROM context_vectors ORDER BY dims`.execute(db);
  return rows.map((r) => Number(r.dims));
}

/** PostgreSQL: the planner's statistics of every table (after a bulk copy). */
export async function analyzeTables(db: Executor): Promise<void> {
  await sql`ANALYZE`.execute(db);
}

/** A live (not being deleted) database of an organization, by name. */
export async function findLiveDatabase(db: Executor, orgId: string, name: string): Promise<{ id: string; org_id: string } | undefined> {
  const { rows } = await sql<{ id: string; org_id: string }>`SELECT id, org_id FROM databases
    WHERE org_id = ${orgId} AND name = ${name} AND status <> 'deleting'`.execute(db);
  return rows[0];
}

export async function organizationIds(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM organizations ORDER BY created_at, id`.execute(db);
  return rows.map((r) => r.id);
}

export async function webhookEndpoint(db: Executor, orgId: string): Promise<PlainRow | undefined> {
  const { rows } = await sql<PlainRow>`SELECT * FROM webhook_endpoints WHERE org_id = ${orgId}`.execute(db);
  return rows[0];
}

/** Items of a database whose indexing had not ended (their jobs are not part of an archive). */
export async function unfinishedItems(db: Executor, databaseId: string): Promise<Array<{ id: string; generation: number; status: string }>> {
  const { rows } = await sql<{ id: string; generation: number; status: string }>`SELECT id, generation, status FROM context_items
    WHERE database_id = ${databaseId} AND status NOT IN ('completed', 'errored') ORDER BY id`.execute(db);
  return rows.map((r) => ({ id: r.id, generation: Number(r.generation), status: r.status }));
}

/** A column of a table as an archived row must fill it. */
export interface ColumnInfo {
  readonly name: string;
  /** What the column holds: whole numbers, text, or bytes (a file's, a vector's; base64 in an archive). */
  readonly kind: "integer" | "text" | "bytes";
  /** NOT NULL without a default: a row must give it. */
  readonly required: boolean;
}

const kindOf = (declared: string): ColumnInfo["kind"] => {
  const type = declared.toLowerCase();
  if (type.includes("int")) return "integer";
  if (type === "blob" || type === "bytea" || type === "user-defined" || type === "vector") return "bytes";
  return "text";
};

/** The columns of one of the store's tables, from its catalog. */
export async function tableColumns(db: Executor, backend: Backend, table: string): Promise<ColumnInfo[]> {
  if (backend === "sqlite") {
    const { rows } = await sql<{ name: string; type: string; nn: number; dflt: unknown; pk: number }>`
      SELECT name, type, "notnull" AS nn, dflt_value AS dflt, pk FROM pragma_table_info(${table})`.execute(db);
    return rows.map((r) => ({ name: r.name, kind: kindOf(r.type), required: (Number(r.nn) === 1 || Number(r.pk) > 0) && r.dflt === null }));
  }
  const { rows } = await sql<{ name: string; type: string; nullable: string; dflt: unknown }>`
    SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt
    FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`.execute(db);
  return rows.map((r) => ({ name: r.name, kind: kindOf(r.type), required: r.nullable === "NO" && r.dflt === null }));
}
