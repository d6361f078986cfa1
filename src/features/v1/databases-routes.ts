import type { App } from "../../platform/http/app-type.js";
import { pickAliased } from "../../platform/http/aliases.js";
import { requirePrincipal } from "../../platform/http/auth.js";
import { sendData } from "../../platform/http/envelope.js";
import { requiredDatabase } from "../databases/routes.js";
import { CreateDatabaseBody, DatabaseScopeQuery, DeleteDatabaseBody, rejectEmbeddingsDatabase } from "../databases/schemas.js";
import { AUTHENTICATED, envelopeErrors, envelopeOf, WITH_BODY } from "../../platform/http/response-schemas.js";
import { SubTenantList, TenantAccepted, TenantList, TenantListProperties, TenantStats, TenantStatus } from "./schemas.js";
import { type DatabaseService } from "../databases/service.js";
import type { DatabaseReadiness } from "../databases/readiness.js";
import type { DatabaseStats } from "../databases/stats.js";

const tags = ["Tenants (deprecated)"];
const deprecatedRoute = { message: "The /tenants routes are deprecated; use the /databases routes" };
const config = { deprecatedRoute };
const legacy = { legacy: true };

/**
 * The deprecated /tenants routes: the six routes of the spec and the paths the vendor's
 * SDK (@hydradb/sdk 2.0.0) calls. They map onto the same service as /databases, speak
 * tenant_id / sub_tenant_id and answer with TENANT_* codes.
 */
export function registerLegacyTenantRoutes(app: App, service: DatabaseService, stats: DatabaseStats, readiness: DatabaseReadiness): void {
  const create = async (orgId: string, name: string, schema: unknown) => {
    const row = await service.create(orgId, name, schema, "context", legacy);
    return { status: row.status, tenant_id: row.name, database: row.name, message: "Tenant creation accepted" };
  };
  for (const path of ["/tenants/create", "/tenants"]) {
    app.post(
      path,
      { config, schema: { tags, body: CreateDatabaseBody, response: { 202: envelopeOf(TenantAccepted), ...envelopeErrors(...WITH_BODY, 403, 409, 422) } } },
      async (req, reply) => {
        const { orgId } = requirePrincipal(req);
        const name = requiredDatabase(req, req.body);
        rejectEmbeddingsDatabase(req.body);
        const schema = pickAliased<unknown>(req, req.body, "database_metadata_schema", "tenant_metadata_schema");
        return sendData(req, reply, await create(orgId, name, schema), 202);
      },
    );
  }

  for (const path of ["/tenants/infra/status", "/tenants/status"]) {
    app.get(
      path,
      { config, schema: { tags, querystring: DatabaseScopeQuery, response: { 200: envelopeOf(TenantStatus), ...envelopeErrors(...AUTHENTICATED, 404) } } },
      async (req, reply) => {
        const { orgId } = requirePrincipal(req);
        const row = await service.get(orgId, requiredDatabase(req, req.query), legacy);
        return sendData(req, reply, {
          tenant_id: row.name,
          database: row.name,
          org_id: orgId,
          status: row.status,
          infra: await readiness.of(row),
          message: row.status === "ready" ? "ready" : `tenant is ${row.status}`,
        });
      },
    );
  }

  for (const path of ["/tenants/monitor", "/tenants/stats"]) {
    app.get(
      path,
      { config, schema: { tags, querystring: DatabaseScopeQuery, response: { 200: envelopeOf(TenantStats), ...envelopeErrors(...AUTHENTICATED, 404) } } },
      async (req, reply) => {
        const { orgId } = requirePrincipal(req);
        const row = await service.get(orgId, requiredDatabase(req, req.query), legacy);
        return sendData(req, reply, { ...(await stats.of(row)), message: "ok" });
      },
    );
  }

  for (const path of ["/tenants/sub_tenant_ids", "/tenants/sub-tenants"]) {
    app.get(
      path,
      { config, schema: { tags, querystring: DatabaseScopeQuery, response: { 200: envelopeOf(SubTenantList), ...envelopeErrors(...AUTHENTICATED, 404) } } },
      async (req, reply) => {
        const { orgId } = requirePrincipal(req);
        const ids = await service.collections(orgId, requiredDatabase(req, req.query), legacy);
        return sendData(req, reply, { sub_tenant_ids: ids, collections: ids, message: "ok" });
      },
    );
  }

  for (const path of ["/tenants/delete", "/tenants"]) {
    app.delete(
      path,
      {
        config,
        schema: {
          tags,
          querystring: DatabaseScopeQuery,
          body: DeleteDatabaseBody,
          response: { 202: envelopeOf(TenantAccepted), ...envelopeErrors(...WITH_BODY, 404) },
        },
      },
      async (req, reply) => {
        const { orgId } = requirePrincipal(req);
        const row = await service.delete(orgId, requiredDatabase(req, req.query, req.body), legacy);
        return sendData(req, reply, { tenant_id: row.name, database: row.name, status: "deleting", message: "Tenant deletion accepted" }, 202);
      },
    );
  }

  const listTenants = async (orgId: string) => {
    const rows = await service.list(orgId, "context");
    const live = rows.filter((r) => r.status !== "failed");
    const failed = rows.filter((r) => r.status === "failed");
    return {
      tenant_ids: live.map((r) => r.name),
      failed_tenant_ids: failed.map((r) => ({ tenant_id: r.name, error: r.error ?? "creation failed" })),
      message: "ok",
    };
  };
  // The spec documents this payload as the response itself; it is also the envelope's data.
  app.get(
    "/tenants/tenant_ids",
    { config, schema: { tags, response: { 200: envelopeOf(TenantList, TenantListProperties), ...envelopeErrors(...AUTHENTICATED) } } },
    async (req, reply) => {
      const payload = await listTenants(requirePrincipal(req).orgId);
      return sendData(req, reply, payload, 200, payload);
    },
  );
  app.get("/tenants", { config, schema: { tags, response: { 200: envelopeOf(TenantList), ...envelopeErrors(...AUTHENTICATED) } } }, async (req, reply) => {
    return sendData(req, reply, await listTenants(requirePrincipal(req).orgId));
  });
}
