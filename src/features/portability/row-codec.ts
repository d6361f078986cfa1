import type { Backend } from "../../platform/store/db.js";
import type { PlainRow } from "./portability-store.js";

/**
 * Rows in a form both backends and a JSON line can hold. Everything but two columns already is
 * (text, numbers, null: timestamps are epoch milliseconds and JSON columns text on both). The
 * two that differ: a vector is a little-endian float32 BLOB on SQLite and pgvector text on
 * PostgreSQL, carried as base64 of the float32 bytes, so the values are bit for bit the same on
 * the target (pgvector prints float4 values in a form that reads back exactly); a file's bytes
 * (blobs.data) are base64.
 */

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new Error(`expected bytes, got ${typeof value}`);
}

function vectorToBase64(value: unknown): string {
  if (typeof value === "string") {
    const floats = new Float32Array(value.slice(1, -1).split(",").map(Number));
    return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString("base64");
  }
  const bytes = bytesOf(value);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

function vectorFromBase64(value: unknown, backend: Backend): Uint8Array | string {
  if (typeof value !== "string") throw new Error("a vector must be base64 text in an archive");
  const bytes = Buffer.from(value, "base64");
  if (backend === "sqlite") return bytes;
  const floats = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return `[${Array.from(floats).join(",")}]`;
}

/** A stored row in its portable form (blobs.data is filled in by the caller, from wherever the bytes live). */
export function toPortable(table: string, row: PlainRow): PlainRow {
  if (table === "context_vectors") return { ...row, embedding: vectorToBase64(row.embedding) };
  if (table === "blobs") return { ...row, data: null };
  return row;
}

/** A portable row as the target backend stores it (blobs: the bytes stay in the row on PostgreSQL only). */
export function fromPortable(table: string, row: PlainRow, backend: Backend): PlainRow {
  if (table === "context_vectors") return { ...row, embedding: vectorFromBase64(row.embedding, backend) };
  if (table === "blobs") {
    const data = typeof row.data === "string" && backend === "postgres" ? Buffer.from(row.data, "base64") : null;
    return { ...row, data };
  }
  return row;
}

export const base64Of = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
