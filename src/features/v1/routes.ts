import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { decodePrincipals, isPlainObject } from "../items/json-field.js";
import type { ContextEditService } from "../items/edit-service.js";
import { ingestRequestOf, withIngestBody } from "../ingestion/routes.js";
import { IngestBody } from "../ingestion/schemas.js";
import type { IngestService } from "../ingestion/service.js";
import type { UploadLimits } from "../ingestion/multipart-upload.js";
import { idList } from "../items/status-routes.js";
import type { StatusService } from "../items/status-service.js";
import { resolveDatabase } from "../databases/tenancy.js";
import type { DatabaseService } from "../databases/service.js";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { resolveScope } from "../../platform/http/aliases.js";
import { orgTenancyOf, requirePrincipal } from "../../platform/http/auth.js";
import { splitMetadataFilters } from "../search/filters.js";
import type { QueryInput, QueryResult, QueryService } from "../search/service.js";
import { legacyErrors, WITH_BODY } from "../../platform/http/response-schemas.js";
import { IngestOutcomeSchema } from "../ingestion/schemas.js";
import { DeleteOutcomeSchema, StatusListSchema } from "../items/schemas.js";
import { QueryResultSchema } from "../search/schemas.js";
import { AddMemoryBody, DeleteKnowledgeBody, DeleteMemoryBody, VerifyProcessingBody } from "./schemas.js";

/** v1 routes answer plain objects and `{detail: ...}` errors, and speak tenant_id / sub_tenant_id. */
const config = { shape: "legacy" as const };
const tags = ["Legacy v1"];

const RecallBody = Type.Object({
  tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  database: Type.Optional(Type.String({ minLength: 1 })),
  sub_tenant_id: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  collection: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  query: Type.String({ minLength: 1, maxLength: 10_000 }),
  max_chunks: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  alpha: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Literal("auto")])),
  recency_bias: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("thinking")])),
  graph_context: Type.Optional(Type.Boolean()),
  metadata_filters: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  operator: Type.Optional(Type.Union([Type.Literal("or"), Type.Literal("and"), Type.Literal("phrase")])),
  search_mode: Type.Optional(Type.Union([Type.Literal("sources"), Type.Literal("memories"), Type.Literal("knowledge"), Type.Literal("memory")])),
  acl: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String(), Type.Null()])),
});

type Recall = typeof RecallBody.static;

// The service types graph paths loosely (the graph provider's contract); the schema is the wire's.
const RecallResult = Type.Unsafe<QueryResult>(QueryResultSchema);

function scope(req: FastifyRequest, source: Record<string, unknown>): { database: string; collection: string | undefined } {
  const { database, collection } = resolveScope(req, source);
  if (database === undefined) throw invalidInput("'tenant_id' is required");
  // The v1 bodies are decoded here, not by a schema: a name of another type would reach the store.
  if (typeof database !== "string") throw invalidInput("'tenant_id' must be a string");
  if (collection !== undefined && collection !== null && typeof collection !== "string") throw invalidInput("'sub_tenant_id' must be a string");
  return { database, collection: collection ?? undefined };
}

function recallInput(req: FastifyRequest, body: Recall, orgId: string, type: "knowledge" | "memory", queryBy: "hybrid" | "text"): QueryInput {
  const { database, collection } = scope(req, body);
  return {
    orgId,
    requestId: req.id,
    database,
    collections: collection ? [collection] : null,
    query: body.query,
    type,
    queryBy,
    operator: body.operator ?? "or",
    mode: body.mode ?? "fast",
    graphContext: body.graph_context ?? false,
    forceful: true,
    // v1 recall predates query_apps and has no such flag: it searches everything stored.
    queryApps: true,
    ids: null,
    filters: (schema) => splitMetadataFilters(req, body.metadata_filters ?? null, schema),
    maxResults: body.max_chunks ?? body.max_results ?? 10,
    alpha: body.alpha ?? "auto",
    recencyBias: body.recency_bias ?? 0,
    principals: decodePrincipals("acl", body.acl),
  };
}

export interface LegacyDeps {
  statuses: StatusService;
  databases: DatabaseService;
  ingest: IngestService;
  query: QueryService;
  edit: ContextEditService;
  uploads: UploadLimits;
}

/** The v1 endpoints, mapped onto the same services as the v2 routes. */
export function registerLegacyV1Routes(app: App, d: LegacyDeps): void {
  app.post(
    "/ingestion/upload_knowledge",
    {
      config: { ...config, formBody: true },
      schema: { tags, body: IngestBody, response: { 202: IngestOutcomeSchema, ...legacyErrors(...WITH_BODY, 404, 422) } },
    },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const result = await withIngestBody(req, d.uploads, async (raw) => {
        const parsed = ingestRequestOf(req, raw, "knowledge");
        return d.ingest.ingestInto(await resolveDatabase(d.databases, org, parsed.database), parsed);
      });
      return reply.code(202).send(result);
    },
  );

  app.post(
    "/memories/add_memory",
    { config, schema: { tags, body: AddMemoryBody, response: { 202: IngestOutcomeSchema, ...legacyErrors(...WITH_BODY, 404, 422) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      if (!isPlainObject(req.body)) throw invalidInput("the body must be a JSON object");
      const parsed = ingestRequestOf(req, { fields: req.body, files: [] }, "memory");
      return reply.code(202).send(await d.ingest.ingestInto(await resolveDatabase(d.databases, org, parsed.database), parsed));
    },
  );

  app.post(
    "/ingestion/verify_processing",
    { config, schema: { tags, body: VerifyProcessingBody, response: { 200: StatusListSchema, ...legacyErrors(...WITH_BODY, 404) } } },
    async (req) => {
      const org = orgTenancyOf(req);
      const source = { ...(req.query as Record<string, unknown>), ...(isPlainObject(req.body) ? req.body : {}) };
      const { database, collection } = scope(req, source);
      const raw = source.file_ids ?? source.ids ?? source.source_ids;
      const ids = idList(Array.isArray(raw) ? raw.map(String) : typeof raw === "string" ? raw : undefined);
      if (ids.length === 0) throw invalidInput("'file_ids' is required");
      const target = await resolveDatabase(d.databases, org, database, collection);
      return { success: true, message: "ok", statuses: await d.statuses.lookup(target, ids) };
    },
  );

  const remove = async (req: FastifyRequest, corpus: "knowledge" | "memory", ids: string[]) => {
    const org = orgTenancyOf(req);
    const source = { ...(req.query as Record<string, unknown>), ...(isPlainObject(req.body) ? req.body : {}) };
    const { database, collection } = scope(req, source);
    if (ids.length === 0) throw invalidInput("no ids to delete");
    const results = await d.edit.deleteIn(await resolveDatabase(d.databases, org, database, collection), corpus, ids);
    const deleted = results.filter((r) => r.deleted).length;
    return { success: deleted > 0, message: `${deleted} of ${results.length} item(s) deleted`, results, deleted_count: deleted };
  };
  app.delete(
    "/memories/delete_memory",
    { config, schema: { tags, body: DeleteMemoryBody, response: { 200: DeleteOutcomeSchema, ...legacyErrors(...WITH_BODY, 404) } } },
    async (req) => {
      const q = req.query as Record<string, unknown>;
      const ids = idList(typeof q.memory_id === "string" ? q.memory_id : undefined);
      const out = await remove(req, "memory", ids);
      return { ...out, user_memory_deleted: out.deleted_count > 0 };
    },
  );
  app.post(
    "/knowledge/delete_knowledge",
    { config, schema: { tags, body: DeleteKnowledgeBody, response: { 200: DeleteOutcomeSchema, ...legacyErrors(...WITH_BODY, 404) } } },
    async (req) => {
      const body = isPlainObject(req.body) ? req.body : {};
      const raw = body.source_ids ?? body.ids ?? body.file_ids;
      const ids = Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : idList(typeof raw === "string" ? raw : undefined);
      return remove(req, "knowledge", ids);
    },
  );

  app.post(
    "/recall/full_recall",
    { config, schema: { tags, body: RecallBody, response: { 200: RecallResult, ...legacyErrors(...WITH_BODY, 404, 422) } } },
    async (req) => {
      const { orgId } = requirePrincipal(req);
      return d.query.query(recallInput(req, req.body, orgId, "knowledge", "hybrid"));
    },
  );
  app.post(
    "/recall/recall_preferences",
    { config, schema: { tags, body: RecallBody, response: { 200: RecallResult, ...legacyErrors(...WITH_BODY, 404, 422) } } },
    async (req) => {
      const { orgId } = requirePrincipal(req);
      return d.query.query(recallInput(req, req.body, orgId, "memory", "hybrid"));
    },
  );
  app.post(
    "/recall/boolean_recall",
    { config, schema: { tags, body: RecallBody, response: { 200: RecallResult, ...legacyErrors(...WITH_BODY, 404, 422) } } },
    async (req) => {
      const { orgId } = requirePrincipal(req);
      const type = req.body.search_mode === "memories" || req.body.search_mode === "memory" ? "memory" : "knowledge";
      return d.query.query(recallInput(req, req.body, orgId, type, "text"));
    },
  );
}
