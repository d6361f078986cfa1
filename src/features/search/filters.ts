import type { FastifyRequest } from "fastify";
import type { SchemaField } from "../databases/metadata-schema.js";
import { invalidInput } from "../../platform/errors/app-error.js";
import { deprecate } from "../../platform/http/aliases.js";
import { SYSTEM_METADATA_KEYS } from "../ingestion/metadata-align.js";

export interface SplitFilters {
  metadata: Record<string, unknown>;
  additional: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * `metadata_filters` of a query: top-level keys are declared metadata fields (kept only when
 * declared with enable_match; others are ignored) or system keys (`provider`), free-form keys nest under
 * `additional_metadata`. Legacy namespaces: `document_metadata` (free-form) and
 * `tenant_metadata` (declared), accepted with a deprecation notice; the canonical wins.
 */
export function splitMetadataFilters(req: FastifyRequest, raw: Record<string, unknown> | null | undefined, schema: readonly SchemaField[]): SplitFilters {
  const metadata: Record<string, unknown> = {};
  const additional: Record<string, unknown> = {};
  if (!raw) return { metadata, additional };
  const matchable = new Set([...schema.filter((f) => f.enable_match).map((f) => f.name), ...SYSTEM_METADATA_KEYS]);
  const nested = (name: string): Record<string, unknown> => {
    const v = raw[name];
    if (v === undefined || v === null) return {};
    if (!isObject(v)) throw invalidInput(`metadata_filters.${name} must be an object`);
    return v;
  };
  const legacyDeclared = nested("tenant_metadata");
  const legacyFree = nested("document_metadata");
  if (Object.keys(legacyDeclared).length > 0 || raw.tenant_metadata !== undefined) deprecate(req, "metadata_filters.tenant_metadata", "metadata_filters");
  if (Object.keys(legacyFree).length > 0 || raw.document_metadata !== undefined)
    deprecate(req, "metadata_filters.document_metadata", "metadata_filters.additional_metadata");
  for (const [k, v] of Object.entries(legacyDeclared)) if (matchable.has(k)) metadata[k] = v;
  for (const [k, v] of Object.entries(raw)) {
    if (k === "additional_metadata" || k === "document_metadata" || k === "tenant_metadata") continue;
    if (matchable.has(k)) metadata[k] = v;
  }
  Object.assign(additional, legacyFree, nested("additional_metadata"));
  for (const v of [...Object.values(metadata), ...Object.values(additional)]) {
    if (isObject(v) || Array.isArray(v)) throw invalidInput("metadata_filters support exact equality on scalar values only");
  }
  return { metadata, additional };
}
