import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Backend } from "../../platform/store/db.js";

/**
 * SQL over the JSON text columns of `context_items`, the one place where the two backends
 * differ: SQLite walks JSON with `json_each`, PostgreSQL casts to `jsonb`. Keys and values are
 * always bound parameters, so any key (dots, quotes) is safe.
 */

/** Type-exact equality of a top-level key of a JSON object column (`"1"` is not `1`, `true` is not `1`). */
export function jsonKeyEquals(backend: Backend, column: string, key: string, value: unknown): RawBuilder<SqlBool> {
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
export function jsonArrayHasAny(backend: Backend, column: string, values: readonly string[]): RawBuilder<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  const col = sql.ref(column);
  const list = sql.join(values.map((v) => sql`${v}`));
  return backend === "postgres"
    ? sql<SqlBool>`EXISTS (SELECT 1 FROM jsonb_array_elements_text((${col})::jsonb) AS el(v) WHERE el.v IN (${list}))`
    : sql<SqlBool>`EXISTS (SELECT 1 FROM json_each(${col}) el WHERE el.value IN (${list}))`;
}
