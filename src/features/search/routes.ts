import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { deprecate, resolveScope } from "../../platform/http/aliases.js";
import { requirePrincipal } from "../../platform/http/auth.js";
import { envelopeErrors, envelopeOf, WITH_BODY } from "../../platform/http/response-schemas.js";
import { sendData } from "../../platform/http/envelope.js";
import { decodePrincipals } from "../items/json-field.js";
import { validateDatabaseName } from "../databases/service.js";
import { splitMetadataFilters } from "./filters.js";
import { QueryBody, QueryResultSchema } from "./schemas.js";
import type { QueryService } from "./service.js";

const DEFAULT_MAX_RESULTS = 10;

export function registerQueryRoutes(app: App, service: QueryService): void {
  app.post(
    "/query",
    { schema: { tags: ["Query"], body: QueryBody, response: { 200: envelopeOf(QueryResultSchema), ...envelopeErrors(...WITH_BODY, 404, 422) } } },
    async (req, reply) => {
      const { orgId } = requirePrincipal(req);
      const body = req.body;
      const { database, collection } = resolveScope(req, body);
      if (database === undefined) throw invalidInput("'database' is required");
      validateDatabaseName(database);
      if (body.query.trim().length === 0) throw invalidInput("'query' must not be blank");
      const queryBy = body.query_by ?? "hybrid";
      if (body.operator !== undefined && queryBy === "hybrid") {
        throw invalidInput("'operator' applies to query_by 'text' only; remove it or set query_by to 'text'");
      }
      let collections: string[] | null = collection !== undefined && collection !== null ? [collection] : null;
      if (body.sub_tenant_ids && body.sub_tenant_ids.length > 0) {
        deprecate(req, "sub_tenant_ids", "collection");
        if (collections && !(body.sub_tenant_ids.length === 1 && body.sub_tenant_ids[0] === collections[0])) {
          throw invalidInput("'collection' and the deprecated 'sub_tenant_ids' were both sent with different values");
        }
        collections = [...new Set(body.sub_tenant_ids)];
      }
      const rawFilters = body.metadata_filters ?? null;
      const result = await service.query({
        orgId,
        requestId: req.id,
        database,
        collections,
        query: body.query,
        type: body.type ?? "knowledge",
        queryBy,
        operator: body.operator ?? "or",
        mode: body.mode ?? "fast",
        graphContext: body.graph_context ?? true,
        // effective only in thinking mode; ignored (no error) in fast
        forceful: body.query_forceful_relations ?? true,
        queryApps: body.query_apps ?? false,
        ids: body.ids && body.ids.length > 0 ? [...new Set(body.ids)] : null,
        filters: (schema) => splitMetadataFilters(req, rawFilters, schema),
        maxResults: body.max_results ?? DEFAULT_MAX_RESULTS,
        alpha: body.alpha ?? "auto",
        recencyBias: body.recency_bias ?? 0,
        principals: decodePrincipals("acl", body.acl),
      });
      return sendData(req, reply, result);
    },
  );
}
