import { Type } from "@sinclair/typebox";
import { routeDecoded } from "../../platform/http/route-decoded-body.js";
import type { FastifyRequest } from "fastify";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { resolveScope } from "../../platform/http/aliases.js";
import { orgTenancyOf } from "../../platform/http/auth.js";
import { sendData } from "../../platform/http/envelope.js";
import type { ContextEditService } from "./edit-service.js";
import type { DatabaseService } from "../databases/service.js";
import { resolveDatabase } from "../databases/tenancy.js";
import type { Corpus } from "./item-types.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { envelopeErrors, envelopeOf, WITH_BODY } from "../../platform/http/response-schemas.js";
import { DeleteOutcomeSchema, MetadataPatchedSchema } from "./schemas.js";
import { decodeJsonObject, isPlainObject } from "./json-field.js";
import { idList } from "./status-routes.js";
import { keyProblem } from "../../platform/util/identifiers.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const CorpusType = Type.Union([Type.Literal("knowledge"), Type.Literal("memory")]);

const PatchBody = Type.Object({
  database: Type.Optional(NullableString),
  tenant_id: Type.Optional(NullableString),
  collection: Type.Optional(NullableString),
  sub_tenant_id: Type.Optional(NullableString),
  type: Type.Optional(CorpusType),
  // memories carry metadata as a JSON string at ingestion; both forms are accepted here
  metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String(), Type.Null()])),
  additional_metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
});

const MAX_DELETE_IDS = 1000;

/** Documented; the handler decodes it (it merges the query string, which may carry every field). */
const DeleteBody = routeDecoded(
  Type.Object({
    database: Type.String({ description: "required (alias: tenant_id); here or in the query string" }),
    collection: Type.Optional(Type.String({ description: "alias: sub_tenant_id" })),
    type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory")], { description: "default knowledge" })),
    ids: Type.Union([Type.Array(Type.String()), Type.String({ description: "comma-separated" })], { description: `ids to delete, at most ${MAX_DELETE_IDS}` }),
  }),
);

interface Address {
  database: string;
  collection: string | undefined;
  corpus: Corpus;
}

function addressOf(req: FastifyRequest, source: Readonly<Record<string, unknown>>): Address {
  const { database, collection } = resolveScope(req, source);
  if (!database) throw invalidInput("'database' is required");
  const type = source.type ?? "knowledge";
  if (type !== "knowledge" && type !== "memory") throw invalidInput("'type' must be 'knowledge' or 'memory'");
  return { database, collection: collection ?? undefined, corpus: type };
}

/** DELETE takes its fields from a JSON body (the SDK) or from the query string; `ids` as an array or `ids=a&ids=b` / `ids=a,b`. */
function deleteIds(value: unknown): string[] {
  if (Array.isArray(value) && value.every((v): v is string => typeof v === "string")) return idList(value);
  if (typeof value === "string") return idList(value);
  if (value === undefined || value === null) return [];
  throw invalidInput("'ids' must be a list of strings");
}

export function registerEditRoutes(app: App, service: ContextEditService, databases: DatabaseService): void {
  const resolve = (org: OrgTenancy, at: Address) => resolveDatabase(databases, org, at.database, at.collection);
  app.patch(
    "/context/:id/metadata",
    {
      schema: {
        tags: ["Context"],
        params: Type.Object({ id: Type.String({ minLength: 1 }) }),
        body: PatchBody,
        response: { 200: envelopeOf(MetadataPatchedSchema), ...envelopeErrors(...WITH_BODY, 404, 422) },
      },
    },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const at = addressOf(req, req.body);
      const metadata = decodeJsonObject("metadata", req.body.metadata);
      const additional = req.body.additional_metadata ?? null;
      if (metadata === null && additional === null) throw invalidInput("send 'metadata' and/or 'additional_metadata' to merge");
      const keys = keyProblem(metadata ?? {}) ?? keyProblem(additional ?? {});
      if (keys) throw invalidInput(`metadata ${keys}`);
      const merged = await service.patchMetadata(await resolve(org, at), at.corpus, req.params.id, { metadata: metadata ?? {}, additional: additional ?? {} });
      return sendData(req, reply, {
        success: true,
        message: "metadata updated",
        id: req.params.id,
        metadata: merged.metadata,
        additional_metadata: merged.additional,
      });
    },
  );

  app.delete(
    "/context",
    { schema: { tags: ["Context"], body: DeleteBody, response: { 200: envelopeOf(DeleteOutcomeSchema), ...envelopeErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      if (req.body !== undefined && req.body !== null && !isPlainObject(req.body)) throw invalidInput("the body must be a JSON object");
      const source = { ...(req.query as Record<string, unknown>), ...(isPlainObject(req.body) ? req.body : {}) };
      const at = addressOf(req, source);
      const ids = deleteIds(source.ids);
      if (ids.length === 0) throw invalidInput("'ids' is required");
      if (ids.length > MAX_DELETE_IDS) throw invalidInput(`at most ${MAX_DELETE_IDS} ids per request`);
      const results = await service.deleteIn(await resolve(org, at), at.corpus, ids);
      const deleted = results.filter((r) => r.deleted).length;
      return sendData(req, reply, {
        success: deleted > 0,
        message: `${deleted} of ${results.length} item(s) deleted`,
        results,
        deleted_count: deleted,
        ...(at.corpus === "memory" ? { user_memory_deleted: deleted > 0 } : {}),
      });
    },
  );
}
