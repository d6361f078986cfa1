import type { FastifyRequest } from "fastify";
import type { App } from "../../platform/http/app-type.js";
import { invalidInput } from "../../platform/errors/app-error.js";
import { pickAliased, resolveScope } from "../../platform/http/aliases.js";
import { requirePrincipal } from "../../platform/http/auth.js";
import { sendData } from "../../platform/http/envelope.js";
import { envelopeErrors, envelopeOf, WITH_BODY, AUTHENTICATED } from "../../platform/http/response-schemas.js";
import {
  CollectionList,
  CollectionScopeQuery,
  DeleteCollectionBody,
  DeletedCollectionSchema,
  CreateDatabaseBody,
  DatabaseAccepted,
  DatabaseList,
  DatabaseParams,
  DatabaseScopeQuery,
  DatabaseSchemaUpdated,
  DatabaseStatsSchema,
  DatabaseStatus,
  DeleteDatabaseBody,
  rejectEmbeddingsDatabase,
  SchemaPatchBody,
} from "./schemas.js";
import { validateDatabaseName, viewOf, type DatabaseService } from "./service.js";
import type { CollectionDeletion } from "./collection-deletion.js";
import { nameProblem } from "../../platform/util/identifiers.js";
import type { DatabaseReadiness } from "./readiness.js";
import type { DatabaseStats } from "./stats.js";

type Source = Readonly<Record<string, unknown>>;
const asSource = (v: unknown): Source => (typeof v === "object" && v !== null ? (v as Source) : {});

/** `database` (or its alias) from wherever the route carries it; required. */
export function requiredDatabase(req: FastifyRequest, ...sources: unknown[]): string {
  const merged: Record<string, unknown> = {};
  for (const s of sources) {
    for (const [k, v] of Object.entries(asSource(s))) if (v !== undefined && v !== null) merged[k] ??= v;
  }
  const { database } = resolveScope(req, merged);
  if (database === undefined) throw invalidInput("'database' is required");
  return validateDatabaseName(database);
}

const tags = ["Databases"];

export function registerDatabaseRoutes(
  app: App,
  service: DatabaseService,
  stats: DatabaseStats,
  readiness: DatabaseReadiness,
  collectionDeletion: CollectionDeletion,
): void {
  app.post(
    "/databases",
    { schema: { tags, body: CreateDatabaseBody, response: { 202: envelopeOf(DatabaseAccepted), ...envelopeErrors(...WITH_BODY, 403, 409, 422) } } },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const name = requiredDatabase(req, req.body);
      rejectEmbeddingsDatabase(req.body);
      const schema = pickAliased<unknown>(req, asSource(req.body), "database_metadata_schema", "tenant_metadata_schema");
      const row = await service.create(orgId, name, schema);
      return sendData(
        req,
        reply,
        {
          success: true,
          message: "Database creation accepted; poll GET /databases/status until infra.ready_for_ingestion is true",
          database: row.name,
          status: row.status,
        },
        202,
      );
    },
  );

  app.get("/databases", { schema: { tags, response: { 200: envelopeOf(DatabaseList), ...envelopeErrors(...AUTHENTICATED) } } }, async (req, reply) => {
    const { orgId } = requirePrincipal(req);
    const rows = await service.list(orgId);
    return sendData(req, reply, { success: true, message: "ok", databases: rows.map(viewOf), total: rows.length });
  });

  app.delete(
    "/databases",
    {
      schema: {
        tags,
        querystring: DatabaseScopeQuery,
        body: DeleteDatabaseBody,
        response: { 202: envelopeOf(DatabaseAccepted), ...envelopeErrors(...WITH_BODY, 404) },
      },
    },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const name = requiredDatabase(req, req.body, req.query);
      const row = await service.delete(orgId, name);
      return sendData(
        req,
        reply,
        {
          success: true,
          message: "Deletion accepted; the database and all of its data are being removed",
          database: row.name,
          status: "deleting",
        },
        202,
      );
    },
  );

  app.get(
    "/databases/status",
    { schema: { tags, querystring: DatabaseScopeQuery, response: { 200: envelopeOf(DatabaseStatus), ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const row = await service.get(orgId, requiredDatabase(req, req.query));
      return sendData(req, reply, {
        success: true,
        message: row.status === "ready" ? "ready" : `database is ${row.status}`,
        database: row.name,
        org_id: orgId,
        status: row.status,
        infra: await readiness.of(row),
      });
    },
  );

  app.get(
    "/databases/collections",
    { schema: { tags, querystring: DatabaseScopeQuery, response: { 200: envelopeOf(CollectionList), ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const name = requiredDatabase(req, req.query);
      const collections = await service.collections(orgId, name);
      return sendData(req, reply, { success: true, message: "ok", database: name, collections, total: collections.length });
    },
  );

  app.delete(
    "/databases/collections",
    {
      schema: {
        tags,
        querystring: CollectionScopeQuery,
        body: DeleteCollectionBody,
        response: { 200: envelopeOf(DeletedCollectionSchema), ...envelopeErrors(...WITH_BODY, 404) },
      },
    },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const name = requiredDatabase(req, req.body, req.query);
      const { collection } = resolveScope(req, { ...asSource(req.query), ...asSource(req.body) });
      if (collection === undefined) throw invalidInput("'collection' is required");
      const problem = nameProblem(collection);
      if (problem) throw invalidInput(`'collection' ${problem}`);
      const { existed, removed } = await collectionDeletion.delete({ orgId }, name, collection);
      return sendData(req, reply, {
        success: true,
        message: existed ? `Collection '${collection}' and its ${removed} item(s) deleted` : `No collection '${collection}': nothing to delete`,
        database: name,
        collection,
        status: "deleted" as const,
        existed,
        deleted_items: removed,
      });
    },
  );

  app.get(
    "/databases/stats",
    { schema: { tags, querystring: DatabaseScopeQuery, response: { 200: envelopeOf(DatabaseStatsSchema), ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const row = await service.get(orgId, requiredDatabase(req, req.query));
      return sendData(req, reply, { success: true, message: "ok", ...(await stats.of(row)) });
    },
  );

  app.patch(
    "/databases/:database/metadata-schema",
    {
      schema: {
        tags,
        params: DatabaseParams,
        body: SchemaPatchBody,
        response: { 200: envelopeOf(DatabaseSchemaUpdated), ...envelopeErrors(...WITH_BODY, 404, 422) },
      },
    },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const name = validateDatabaseName(req.params.database);
      req.state.database = name;
      const fields = req.body.fields ?? req.body.database_metadata_schema;
      if (fields === undefined) throw invalidInput("'fields' is required");
      const row = await service.addSchemaFields(orgId, name, fields);
      return sendData(req, reply, { success: true, message: "Schema updated", ...viewOf(row) });
    },
  );
}
