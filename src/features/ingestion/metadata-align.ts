import type { SchemaField } from "../databases/metadata-schema.js";

export type Aligned = { ok: true; metadata: Record<string, unknown>; additional: Record<string, unknown> } | { ok: false; message: string };

function fits(field: SchemaField, value: unknown): boolean {
  if (value === null) return field.nullable;
  switch (field.data_type) {
    case "BOOL":
      return typeof value === "boolean";
    case "INT8":
    case "INT16":
    case "INT32":
    case "INT64":
      return typeof value === "number" && Number.isInteger(value);
    case "FLOAT":
    case "DOUBLE":
      return typeof value === "number";
    case "VARCHAR":
      return typeof value === "string" && (field.max_length === undefined || value.length <= field.max_length);
    case "ARRAY":
    case "FLOAT_VECTOR":
    case "SPARSE_FLOAT_VECTOR":
      return Array.isArray(value);
    case "JSON":
      return true;
  }
}

/**
 * Splits metadata along the database's declared schema: declared keys stay in `metadata` (and
 * must have the declared type), undeclared keys move to `additional_metadata`, so nothing
 * sent is lost and filters only ever see declared fields. `system` keys (SYSTEM_METADATA_KEYS)
 * replace whatever the metadata held under their names and always stay in `metadata`.
 */
export function alignMetadata(
  schema: readonly SchemaField[],
  metadata: Record<string, unknown>,
  additional: Record<string, unknown>,
  system: Readonly<Record<string, unknown>> = {},
): Aligned {
  const declared = new Map(schema.map((f) => [f.name, f]));
  const out: Record<string, unknown> = {};
  const extra: Record<string, unknown> = { ...additional };
  for (const [key, value] of Object.entries(metadata)) {
    if (key in system) continue;
    const field = declared.get(key);
    if (!field) {
      extra[key] ??= value;
      continue;
    }
    if (!fits(field, value)) return { ok: false, message: `metadata.${key} must be of type ${field.data_type}` };
    out[key] = value;
  }
  return { ok: true, metadata: { ...out, ...system }, additional: extra };
}

/**
 * Metadata keys the service itself sets, kept in `metadata` whatever the database's schema
 * declares, and matchable in `metadata_filters`: a synced object's `provider` (system keys win
 * over the user's, as the connector contract says).
 */
export const SYSTEM_METADATA_KEYS: readonly string[] = ["provider"];

/** The system metadata of an item: its provider when a connector wrote it. */
export function systemMetadataOf(item: { connectorId: string | null; app: { provider: string | null } | null }): Record<string, unknown> {
  return item.connectorId !== null && item.app?.provider ? { provider: item.app.provider } : {};
}
