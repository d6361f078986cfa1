import { resolveDatabase } from "../databases/tenancy.js";
import type { DatabaseService } from "../databases/service.js";
import type { Static } from "@sinclair/typebox";
import type { App } from "../../platform/http/app-type.js";
import { orgTenancyOf } from "../../platform/http/auth.js";
import { legacyErrors } from "../../platform/http/response-schemas.js";
import {
  CreatedGraphDatabase,
  DeletedGraphDatabase,
  DroppedGraphCollection,
  GraphCollectionBody,
  GraphCollectionList,
  GraphDatabaseBody,
  GraphDatabaseQuery,
  GraphQueryBody,
  GraphQueryResult,
} from "./schemas.js";
import type { GraphAreaService } from "./service.js";

/** Spec limit for graph-area request bodies; above it 413 in this area's {detail} shape. */
const GRAPH_BODY_LIMIT_BYTES = 256 * 1024;

const tags = ["Graph (bring-your-own-graph)"];
// Errors use {detail: {success: false, message, error_code}}; a missing or invalid key is 403.
const config = { shape: "legacy" as const, authFailureStatus: 403 as const };
const bodyLimit = GRAPH_BODY_LIMIT_BYTES;
// A missing or invalid key answers 403 here; 404 for an unknown database, 409 for a taken name.
const GRAPH_READ = [400, 403, 404, 429, 500, 503] as const;
const GRAPH_WRITE = [...GRAPH_READ, 409, 413] as const;

/**
 * The graph area. Successes are plain objects with `success: true`, the counterpart of the
 * {detail: {success: false, ...}} errors; the query's rows are under `data`.
 */
export function registerGraphAreaRoutes(app: App, service: GraphAreaService, databases: DatabaseService): void {
  app.post(
    "/byog/databases",
    { config, bodyLimit, schema: { tags, body: GraphDatabaseBody, response: { 200: CreatedGraphDatabase, ...legacyErrors(...GRAPH_WRITE) } } },
    async (req) => {
      const row = await service.createDatabase(orgTenancyOf(req), req.body.database);
      return { success: true as const, database: row.name, status: "ready" as const };
    },
  );

  app.post(
    "/byog/query",
    { config, bodyLimit, schema: { tags, body: GraphQueryBody, response: { 200: GraphQueryResult, ...legacyErrors(...GRAPH_WRITE) } } },
    async (req, reply) => {
      const { database, collection, query, params } = req.body;
      const at = await resolveDatabase(databases, orgTenancyOf(req), database, collection);
      const outcome = await service.query(at, query, params ?? {});
      // The cap drops rows silently (spec); the header lets a client notice and page.
      if (outcome.truncated) void reply.header("X-Result-Truncated", "true");
      // The worker rendered and serialised the rows; Fastify sends a string with a JSON content type
      // as it is, so the rows (of any size or depth) are never walked again on this thread. The body
      // is exactly the declared GraphQueryResult, hence the cast.
      const body = `{"success":true,"data":${outcome.json}}`;
      return reply.type("application/json; charset=utf-8").send(body as unknown as Static<typeof GraphQueryResult>);
    },
  );

  app.get(
    "/byog/collections",
    { config, schema: { tags, querystring: GraphDatabaseQuery, response: { 200: GraphCollectionList, ...legacyErrors(...GRAPH_READ) } } },
    async (req) => {
      const at = await resolveDatabase(databases, orgTenancyOf(req), req.query.database);
      const collections = await service.listCollections(at);
      return { success: true as const, database: req.query.database, collections };
    },
  );

  app.delete(
    "/byog/collections",
    { config, bodyLimit, schema: { tags, body: GraphCollectionBody, response: { 200: DroppedGraphCollection, ...legacyErrors(...GRAPH_WRITE) } } },
    async (req) => {
      const { database, collection } = req.body;
      const dropped = await service.dropCollection(await resolveDatabase(databases, orgTenancyOf(req), database, collection));
      return { success: true as const, database, collection, dropped };
    },
  );

  app.delete(
    "/byog/databases",
    { config, bodyLimit, schema: { tags, body: GraphDatabaseBody, response: { 200: DeletedGraphDatabase, ...legacyErrors(...GRAPH_WRITE) } } },
    async (req) => {
      const at = await resolveDatabase(databases, orgTenancyOf(req), req.body.database);
      return { success: true as const, ...(await service.deleteDatabase(at)) };
    },
  );
}
