import { Type, type Static } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import { expandPrincipals } from "../items/acl.js";
import { decodePrincipals } from "../items/json-field.js";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { deprecate, resolveScope } from "../../platform/http/aliases.js";
import { orgTenancyOf } from "../../platform/http/auth.js";
import { sendData } from "../../platform/http/envelope.js";
import type { Corpus } from "../items/item-types.js";
import { DEFAULT_RELATIONS_LIMIT, MAX_RELATIONS_LIMIT, type RelationsService } from "./relations-service.js";
import type { DatabaseService } from "../databases/service.js";
import { resolveDatabase } from "../databases/tenancy.js";
import type { GraphRead } from "./request-scope.js";
import { AUTHENTICATED, envelopeErrors, envelopeOf } from "../../platform/http/response-schemas.js";
import { RelationsPageSchema, SubgraphSchema } from "./schemas.js";
import type { SubgraphService } from "./subgraph-service.js";

const Scope = {
  database: Type.Optional(Type.String({ minLength: 1 })),
  tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  collection: Type.Optional(Type.String({ minLength: 1 })),
  sub_tenant_id: Type.Optional(Type.String({ minLength: 1 })),
  acl: Type.Optional(Type.Array(Type.String())),
};

const SubgraphQuery = Type.Object({
  ...Scope,
  id: Type.Optional(Type.String({ minLength: 1 })),
  type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory"), Type.Literal("all")])),
  depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  max_sources: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});
type SubgraphQueryType = Static<typeof SubgraphQuery>;

const RelationsQuery = Type.Object({
  ...Scope,
  id: Type.Optional(Type.String({ minLength: 1 })),
  source_id: Type.Optional(Type.String({ minLength: 1 })),
  type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory")])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RELATIONS_LIMIT })),
  cursor: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
});

/** The graph a read addresses: database / collection (with their aliases) resolved once, corpus, and `acl` (repeated or comma-separated). */
async function graphReadOf(
  req: FastifyRequest,
  databases: DatabaseService,
  query: Readonly<Record<string, unknown>> & { acl?: string[] },
  corpus: Corpus,
): Promise<GraphRead> {
  const { database, collection } = resolveScope(req, query);
  if (!database) throw invalidInput("'database' is required");
  const principals = decodePrincipals("acl", query.acl?.join(","));
  const at = await resolveDatabase(databases, orgTenancyOf(req), database, collection);
  return {
    orgId: at.orgId,
    databaseId: at.databaseId,
    collection: at.collection,
    corpus,
    principals: principals === null ? null : expandPrincipals(principals),
  };
}

function corpusOf(req: FastifyRequest, type: SubgraphQueryType["type"]): Corpus {
  if (type === "all") {
    deprecate(req, "type=all", "type=knowledge", "subgraph 'type=all' is deprecated and answered from the knowledge graph; use 'type=knowledge'");
    return "knowledge";
  }
  return type ?? "knowledge";
}

export function registerGraphRoutes(app: App, subgraphs: SubgraphService, relations: RelationsService, databases: DatabaseService): void {
  const subgraph = async (req: FastifyRequest, query: SubgraphQueryType, id: string | undefined) => {
    if (!id) throw invalidInput("'id' is required");
    return subgraphs.subgraph({
      ...(await graphReadOf(req, databases, query, corpusOf(req, query.type))),
      id,
      depth: query.depth ?? 5,
      maxSources: query.max_sources ?? 200,
    });
  };

  // Ids containing a literal '/' use the query-string form.
  app.get(
    "/context/subgraph",
    { schema: { tags: ["Graph"], querystring: SubgraphQuery, response: { 200: envelopeOf(SubgraphSchema), ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => sendData(req, reply, await subgraph(req, req.query, req.query.id)),
  );
  app.get(
    "/context/:id/subgraph",
    {
      schema: {
        tags: ["Graph"],
        params: Type.Object({ id: Type.String({ minLength: 1 }) }),
        querystring: SubgraphQuery,
        response: { 200: envelopeOf(SubgraphSchema), ...envelopeErrors(...AUTHENTICATED, 404) },
      },
    },
    async (req, reply) => sendData(req, reply, await subgraph(req, req.query, req.params.id)),
  );

  app.get(
    "/context/relations",
    { schema: { tags: ["Graph"], querystring: RelationsQuery, response: { 200: envelopeOf(RelationsPageSchema), ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const q = req.query;
      const page = await relations.relations({
        ...(await graphReadOf(req, databases, q, q.type ?? "knowledge")),
        id: q.id ?? q.source_id,
        limit: q.limit ?? DEFAULT_RELATIONS_LIMIT,
        cursor: q.cursor,
      });
      return sendData(req, reply, page);
    },
  );
}
