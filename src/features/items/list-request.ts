import { Type, type Static } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { invalidInput } from "../../platform/errors/app-error.js";
import { deprecate, resolveScope } from "../../platform/http/aliases.js";
import type { Corpus } from "./item-types.js";
import { expandPrincipals } from "./acl.js";
import { KNOWLEDGE_FIELDS, type KnowledgeField } from "./item-render.js";
import { MAX_FILTER_CLAUSES, type SourceFieldFilter } from "./item-visibility.js";
import { decodePrincipals, isPlainObject } from "./json-field.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const FilterMap = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

export const ListBody = Type.Object({
  database: Type.Optional(NullableString),
  tenant_id: Type.Optional(NullableString),
  collection: Type.Optional(NullableString),
  sub_tenant_id: Type.Optional(NullableString),
  type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory"), Type.Literal("all")])),
  // Ids are filter clauses too (item-visibility.ts): the schema states the same bound.
  ids: Type.Optional(Type.Union([Type.Array(Type.String(), { maxItems: MAX_FILTER_CLAUSES }), Type.Null()])),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  filters: Type.Optional(
    Type.Union([
      Type.Object(
        {
          metadata: Type.Optional(FilterMap),
          additional_metadata: Type.Optional(FilterMap),
          source_fields: Type.Optional(FilterMap),
          tenant_metadata: Type.Optional(FilterMap),
          document_metadata: Type.Optional(FilterMap),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  ),
  include_fields: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  acl: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String(), Type.Null()])),
  fold_threads: Type.Optional(Type.Boolean()),
  /**
   * An extension of the interface's list: full-text filtering. Every whitespace-separated word must
   * occur in the item's title or its indexed text (a substring, ASCII letters case-insensitive),
   * combined with the other filters by AND. Items still being indexed match on their title only.
   */
  search: Type.Optional(
    Type.Union([
      Type.String({
        maxLength: 500,
        description:
          "Full-text filter (an extension): every whitespace-separated word must occur in the item's title or indexed text; substring match, ASCII letters case-insensitive; up to 20 words",
      }),
      Type.Null(),
    ]),
  ),
  max_comments: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type ListBodyType = Static<typeof ListBody>;

/** A validated list request, legacy names resolved. */
export interface ListQuery {
  database: string;
  collection: string | undefined;
  corpora: Corpus[];
  ids: string[] | null;
  page: number;
  pageSize: number;
  /** Still unchecked against the schema: the service keeps declared, match-enabled keys. */
  metadata: Record<string, unknown>;
  additional: Record<string, unknown>;
  sourceFields: SourceFieldFilter;
  includeFields: Set<KnowledgeField> | null;
  principals: string[] | null;
  foldThreads: boolean;
  maxComments: number;
  /** `search`'s words, ASCII-lowercased and deduplicated; empty for none. */
  search: string[];
}

const FORBIDDEN_FIELDS = new Set(["content", "url", "attachments"]);
const LEGACY_FIELDS: Record<string, KnowledgeField> = { tenant_metadata: "metadata", document_metadata: "additional_metadata" };
const STRING_SOURCE_FIELDS = ["type", "title", "description", "url"] as const;
const DEFAULT_MAX_COMMENTS = 20;
/** Each word is one more EXISTS over the item's chunks: a bound on what one list may cost. */
const MAX_SEARCH_WORDS = 20;

/** The words of `search`: split on whitespace, ASCII letters lowercased (as the SQL folds them), each once. */
function searchWordsOf(raw: string | null | undefined): string[] {
  const words = [
    ...new Set(
      (raw ?? "")
        .split(/\s+/u)
        .filter((w) => w !== "")
        .map((w) => w.replace(/[A-Z]/g, (c) => c.toLowerCase())),
    ),
  ];
  if (words.length > MAX_SEARCH_WORDS) throw invalidInput(`search: at most ${MAX_SEARCH_WORDS} words, got ${words.length}`);
  return words;
}

/** A filter namespace and its deprecated alias merged key by key; the canonical value wins. */
function mergeNamespace(req: FastifyRequest, filters: Record<string, unknown>, canonical: string, legacy: string): Record<string, unknown> {
  const c = filters[canonical];
  const l = filters[legacy];
  if (isPlainObject(l)) deprecate(req, `filters.${legacy}`, `filters.${canonical}`);
  return { ...(isPlainObject(l) ? l : {}), ...(isPlainObject(c) ? c : {}) };
}

function sourceFieldsOf(raw: unknown): SourceFieldFilter {
  if (!isPlainObject(raw)) return {};
  const out: SourceFieldFilter = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (key === "timestamp") {
      const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
      if (Number.isNaN(ms)) throw invalidInput("filters.source_fields.timestamp must be an ISO 8601 date-time string");
      out.timestamp = ms;
    } else if ((STRING_SOURCE_FIELDS as readonly string[]).includes(key)) {
      if (typeof value !== "string") throw invalidInput(`filters.source_fields.${key} must be a string`);
      out[key as (typeof STRING_SOURCE_FIELDS)[number]] = value;
    } else {
      throw invalidInput(`filters.source_fields.${key} is not filterable; use type, title, description, url or timestamp`);
    }
  }
  return out;
}

function includeFieldsOf(req: FastifyRequest, raw: readonly string[] | null | undefined): Set<KnowledgeField> | null {
  if (!raw || raw.length === 0) return null;
  const out = new Set<KnowledgeField>();
  for (const name of raw) {
    if (FORBIDDEN_FIELDS.has(name)) throw invalidInput(`include_fields: '${name}' is not part of list rows; fetch it per item with GET /context/inspect`);
    if (name === "id" || name === "database" || name === "collection") continue; // always returned
    const legacy = LEGACY_FIELDS[name];
    if (legacy) {
      deprecate(req, name, legacy, `include_fields '${name}' is deprecated; use '${legacy}'`);
      out.add(legacy);
      continue;
    }
    const field = KNOWLEDGE_FIELDS.find((f) => f === name);
    if (!field) throw invalidInput(`include_fields: unknown field '${name}'; allowed: ${KNOWLEDGE_FIELDS.join(", ")}`);
    out.add(field);
  }
  return out;
}

export function readListRequest(req: FastifyRequest, body: ListBodyType): ListQuery {
  const { database, collection } = resolveScope(req, body);
  if (!database) throw invalidInput("'database' is required");
  const filters = body.filters ?? {};
  const type = body.type ?? "knowledge";
  const principals = decodePrincipals("acl", body.acl);
  return {
    database,
    collection: collection ?? undefined,
    corpora: type === "all" ? ["knowledge", "memory"] : [type],
    ids: body.ids && body.ids.length > 0 ? [...new Set(body.ids)] : null,
    page: body.page ?? 1,
    pageSize: body.page_size ?? 50,
    metadata: mergeNamespace(req, filters, "metadata", "tenant_metadata"),
    additional: mergeNamespace(req, filters, "additional_metadata", "document_metadata"),
    sourceFields: sourceFieldsOf(filters.source_fields),
    includeFields: includeFieldsOf(req, body.include_fields),
    principals: principals ? expandPrincipals(principals) : null,
    foldThreads: body.fold_threads === true,
    maxComments: body.max_comments ?? DEFAULT_MAX_COMMENTS,
    search: searchWordsOf(body.search),
  };
}
