import type { ColumnInfo, PlainRow } from "./portability-store.js";

/**
 * Whether one archived row fits the target's table, column by column, before any row is written:
 * every column is one the table has, holds what the column holds (whole numbers, text, base64 of
 * bytes) and every column the table needs is there. SQLite would store a string in an INTEGER
 * column without complaint, and a service reading it back would fail far from the import.
 * Returns the first problem, or null.
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function valueProblem(info: ColumnInfo, value: unknown): string | null {
  switch (info.kind) {
    case "integer":
      return Number.isSafeInteger(value) ? null : "must be a whole number";
    case "text":
      return typeof value === "string" ? null : "must be text";
    case "bytes":
      return typeof value === "string" && BASE64.test(value) ? null : "must be base64 text";
  }
}

export function rowProblem(row: unknown, columns: ReadonlyMap<string, ColumnInfo>): string | null {
  if (row === null || typeof row !== "object" || Array.isArray(row)) return "is not an object";
  const values = row as PlainRow;
  for (const [column, value] of Object.entries(values)) {
    const info = columns.get(column);
    if (info === undefined) return `has a column ${JSON.stringify(column.slice(0, 80))} the table does not have`;
    if (value === null) continue;
    const problem = valueProblem(info, value);
    if (problem !== null) return `${column} ${problem}`;
  }
  for (const info of columns.values()) {
    if (info.required && (values[info.name] === undefined || values[info.name] === null)) return `${info.name} is missing`;
  }
  return null;
}

/** A vector's bytes, as many as its `dims` say (a float32 each). */
export function vectorProblem(row: PlainRow): string | null {
  const bytes = Buffer.from(String(row.embedding), "base64").byteLength;
  const dims = Number(row.dims);
  return dims > 0 && bytes === dims * 4 ? null : `embedding holds ${bytes} bytes, not the ${dims * 4} of ${dims} dimensions`;
}
