import { validationError } from "../../platform/errors/app-error.js";

export const FIELD_TYPES = [
  "BOOL",
  "INT8",
  "INT16",
  "INT32",
  "INT64",
  "FLOAT",
  "DOUBLE",
  "VARCHAR",
  "JSON",
  "ARRAY",
  "FLOAT_VECTOR",
  "SPARSE_FLOAT_VECTOR",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One declared metadata field: what `metadata` keys may be filtered and embedded. */
export interface SchemaField {
  name: string;
  data_type: FieldType;
  max_length?: number;
  enable_match: boolean;
  enable_dense_embedding: boolean;
  enable_sparse_embedding: boolean;
  enable_analyzer?: boolean;
  nullable: boolean;
  description?: string;
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const BOOLEAN_KEYS = ["enable_match", "enable_dense_embedding", "enable_sparse_embedding", "enable_analyzer", "nullable"] as const;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function parseField(raw: unknown, where: string): SchemaField {
  if (!isObject(raw)) throw validationError(`${where}: a schema field must be an object`);
  const name = raw.name;
  if (typeof name !== "string" || !FIELD_NAME.test(name)) {
    throw validationError(`${where}: 'name' must match ${FIELD_NAME.source}`);
  }
  const type = raw.data_type ?? raw.type ?? "VARCHAR";
  const upper = typeof type === "string" ? type.toUpperCase() : type;
  const dataType = FIELD_TYPES.find((t) => t === upper);
  if (!dataType) throw validationError(`${where}: invalid data_type '${JSON.stringify(type)}'; allowed: ${FIELD_TYPES.join(", ")}`);
  for (const key of BOOLEAN_KEYS) {
    if (raw[key] !== undefined && typeof raw[key] !== "boolean") {
      throw validationError(`${where}: '${key}' must be a boolean`);
    }
  }
  if (raw.max_length !== undefined && !(Number.isInteger(raw.max_length) && (raw.max_length as number) > 0)) {
    throw validationError(`${where}: 'max_length' must be a positive integer`);
  }
  if (raw.description !== undefined && typeof raw.description !== "string") {
    throw validationError(`${where}: 'description' must be a string`);
  }
  const embedded = raw.enable_dense_embedding === true || raw.enable_sparse_embedding === true;
  if (embedded && dataType !== "VARCHAR") {
    throw validationError(`${where}: embeddings can only be enabled on VARCHAR fields`);
  }
  const field: SchemaField = {
    name,
    data_type: dataType,
    enable_match: raw.enable_match === true,
    enable_dense_embedding: raw.enable_dense_embedding === true,
    enable_sparse_embedding: raw.enable_sparse_embedding === true,
    nullable: raw.nullable !== false,
  };
  if (typeof raw.max_length === "number") field.max_length = raw.max_length;
  if (typeof raw.enable_analyzer === "boolean") field.enable_analyzer = raw.enable_analyzer;
  if (typeof raw.description === "string") field.description = raw.description;
  return field;
}

/**
 * Accepts the array form (`[{name, data_type, ...}]`) or the object form
 * (`{field: {data_type, ...}}`); anything semantically wrong is 422 VALIDATION_ERROR.
 */
export function parseMetadataSchema(raw: unknown): SchemaField[] {
  if (raw === undefined || raw === null) return [];
  const entries: unknown[] = Array.isArray(raw)
    ? raw
    : isObject(raw)
      ? Object.entries(raw).map(([name, def]) => (isObject(def) ? { name, ...def } : def))
      : (() => {
          throw validationError("database_metadata_schema must be an array of fields or an object of fields");
        })();
  const fields = entries.map((e, i) => parseField(e, `database_metadata_schema[${i}]`));
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.name)) throw validationError(`database_metadata_schema: duplicate field '${f.name}'`);
    seen.add(f.name);
  }
  return fields;
}

/** Adds fields to a schema; re-declaring an existing field identically is a no-op, differently a 422. */
export function mergeSchemaFields(current: readonly SchemaField[], added: readonly SchemaField[]): SchemaField[] {
  const merged = [...current];
  for (const field of added) {
    const existing = merged.find((f) => f.name === field.name);
    if (!existing) merged.push(field);
    else if (JSON.stringify(existing) !== JSON.stringify(field)) {
      throw validationError(`field '${field.name}' is already declared with a different definition`);
    }
  }
  return merged;
}
