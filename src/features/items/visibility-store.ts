import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Backend } from "../../platform/store/db.js";
import type { SourceFieldFilter, Visibility } from "./item-visibility.js";

/*
 * The SQL half of item visibility (item-visibility.ts): the predicate the stores that read
 * items (lists, search, graph traversal) put in their WHERE clauses. Every condition runs in
 * SQL, starting with the organization, so counts and pages agree and no row of another
 * organization is ever admitted.
 */

const SOURCE_COLUMNS = { type: "type", title: "title", description: "description", url: "url", timestamp: "item_timestamp" } as const;

/** The predicate over `context_items` aliased `alias`; every condition runs in SQL, so counts and pages agree. */
export function visibleItem(backend: Backend, alias: string, v: Visibility): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const parts: RawBuilder<unknown>[] = [
    sql`${col("org_id")} = ${v.orgId}`,
    sql`${col("database_id")} = ${v.databaseId}`,
    v.collections && v.collections.length > 0 ? sql`${col("collection")} IN (${sql.join([...v.collections])})` : sql`${col("collection")} = ${v.collection}`,
    sql`${col("corpus")} IN (${sql.join([...v.corpora])})`,
    sql`(${col("expires_at")} IS NULL OR ${col("expires_at")} > ${v.now})`,
  ];
  if (v.ids !== null) parts.push(v.ids.length > 0 ? sql`${col("source_id")} IN (${sql.join([...v.ids])})` : sql`1 = 0`);
  for (const [key, value] of Object.entries(v.metadata)) parts.push(jsonKeyEquals(backend, `${alias}.metadata`, key, value));
  for (const [key, value] of Object.entries(v.additional)) parts.push(jsonKeyEquals(backend, `${alias}.additional_metadata`, key, value));
  for (const [field, column] of Object.entries(SOURCE_COLUMNS)) {
    const value = v.sourceFields[field as keyof SourceFieldFilter];
    if (value !== undefined) parts.push(sql`${col(column)} = ${value}`);
  }
  if (v.excludeConnectorItems === true) parts.push(sql`${col("connector_id")} IS NULL`);
  if (v.principals !== null) parts.push(sql`(${col("acl")} IS NULL OR ${jsonArrayHasAny(backend, `${alias}.acl`, v.principals)})`);
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

/**
 * SQL over the JSON text columns of `context_items`, the one place where the two backends
 * differ: SQLite walks JSON with `json_each`, PostgreSQL casts to `jsonb`. Keys and values are
 * always bound parameters, so any key (dots, quotes) is safe.
 */

/** Type-exact equality of a top-level key of a JSON object column (`"1"` is not `1`, `true` is not `1`). */
function jsonKeyEquals(backend: Backend, column: string, key: string, value: unknown): RawBuilder<SqlBool> {
  const col = sql.ref(column);
  if (backend === "postgres") {
    // jsonb equality is exact on type, order-insensitive on object keys, numeric on numbers.
    return sql<SqlBool>`((${col})::jsonb -> ${key}::text) = ${JSON.stringify(value)}::jsonb`;
  }
  return sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${col}) je WHERE je.key = ${key} AND ${sqliteValueMatch(value)})`;
}

function sqliteValueMatch(value: unknown): RawBuilder<SqlBool> {
  if (value === null) return sql<SqlBool>`je.type = 'null'`;
  switch (typeof value) {
    case "boolean":
      return value ? sql<SqlBool>`je.type = 'true'` : sql<SqlBool>`je.type = 'false'`;
    case "number":
      return sql<SqlBool>`je.type IN ('integer', 'real') AND je.value = ${value}`;
    case "string":
      return sql<SqlBool>`je.type = 'text' AND je.value = ${value}`;
    default:
      // arrays and objects: compared as minified JSON text (object key order matters here)
      return sql<SqlBool>`je.type IN ('array', 'object') AND je.value = json(${JSON.stringify(value)})`;
  }
}

/** Whether a JSON array column holds at least one of `values` (text elements). */
function jsonArrayHasAny(backend: Backend, column: string, values: readonly string[]): RawBuilder<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  const col = sql.ref(column);
  const list = sql.join(values.map((v) => sql`${v}`));
  return backend === "postgres"
    ? sql<SqlBool>`EXISTS (SELECT 1 FROM jsonb_array_elements_text((${col})::jsonb) AS el(v) WHERE el.v IN (${list}))`
    : sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${col}) el WHERE el.value IN (${list}))`;
}
