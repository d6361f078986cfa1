import { resolveDatabase } from "../databases/tenancy.js";
import type { DatabaseService } from "../databases/service.js";
import { Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError, invalidInput } from "../../platform/errors/app-error.js";
import { pickAliased, resolveScope } from "../../platform/http/aliases.js";
import type { App } from "../../platform/http/app-type.js";
import { orgTenancyOf, requirePrincipal } from "../../platform/http/auth.js";
import { providerCatalogEntry, providerDetail } from "./provider-views.js";
import { AUTHENTICATED, envelopeErrors, WITH_BODY } from "../../platform/http/response-schemas.js";
import {
  Configured,
  ConfigureBody,
  ConnectorDeleted,
  ConnectorList,
  ConnectorPatched,
  ConnectorStatus,
  ConnectorView,
  DiscoverPage,
  Paused,
  ProviderCatalog,
  ProviderDetail,
  ResourceDeleted,
  ResourceList,
  ResourceView,
  Resumed,
  SyncRequested,
  ConnectorParams,
  CreateBody,
  DiscoverQuery,
  ListQuery,
  PatchBody,
  ProvidersQuery,
  ResourceCreateBody,
  ResourceParams,
} from "./schemas.js";
import type { ConnectorService } from "./service.js";
import type { SyncControl } from "./sync-control.js";

// Connector routes answer with bare objects on success (the vendor's wire); errors keep the
// standard envelope, rendered by the one error handler.
const tags = ["Connectors"];
const send = (reply: FastifyReply, body: unknown, status = 200): FastifyReply => reply.code(status).send(body);
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

// Routes without fields take no body or a JSON object (ignored).
async function objectBodyIfAny(req: FastifyRequest): Promise<void> {
  if (req.body !== undefined && req.body !== null && (typeof req.body !== "object" || Array.isArray(req.body))) {
    throw invalidInput("The body must be a JSON object when present");
  }
}

export function registerConnectorRoutes(app: App, service: ConnectorService, control: SyncControl, databases: DatabaseService): void {
  app.get(
    "/connectors/providers",
    {
      schema: { tags, querystring: ProvidersQuery, response: { 200: Type.Union([ProviderCatalog, ProviderDetail]), ...envelopeErrors(...AUTHENTICATED, 404) } },
    },
    async (req, reply) => {
      requirePrincipal(req);
      if (req.query.id !== undefined) {
        const provider = service.providers.get(req.query.id);
        if (!provider) throw new AppError("PROVIDER_NOT_FOUND", `Provider '${req.query.id}' is not available`);
        return send(reply, providerDetail(provider));
      }
      return send(reply, { providers: service.providers.all().map((p, i) => providerCatalogEntry(p.id, p.provider, i)) });
    },
  );

  app.post(
    "/connectors",
    { schema: { tags, body: CreateBody, response: { 201: ConnectorView, ...envelopeErrors(...WITH_BODY, 404, 409, 422, 502) } } },
    async (req, reply) => {
      const b = req.body;
      const { database, collection } = resolveScope(req, b);
      if (database === undefined) throw invalidInput("'database' is required");
      const at = await resolveDatabase(databases, orgTenancyOf(req), database, collection);
      const created = await service.create(at, {
        provider: b.provider,
        name: opt(b.name),
        providerAccountScope: opt(b.provider_account_scope),
        credentials: b.credentials,
        authType: opt(b.auth_type),
        syncIntervalSeconds: opt(b.sync_interval_seconds),
        customInstructions: opt(b.custom_instructions),
      });
      return send(reply, created, 201);
    },
  );

  app.get(
    "/connectors",
    { schema: { tags, querystring: ListQuery, response: { 200: ConnectorList, ...envelopeErrors(...AUTHENTICATED) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, { connectors: await service.list(org, req.query.provider) });
    },
  );

  app.get(
    "/connectors/:id",
    { schema: { tags, params: ConnectorParams, response: { 200: ConnectorView, ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await service.view(await service.find(org, req.params.id)));
    },
  );

  app.patch(
    "/connectors/:id",
    { schema: { tags, params: ConnectorParams, body: PatchBody, response: { 200: ConnectorPatched, ...envelopeErrors(...WITH_BODY, 404, 422, 502) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const b = req.body;
      return send(
        reply,
        await service.patch(org, req.params.id, {
          syncIntervalSeconds: opt(b.sync_interval_seconds),
          credentials: b.credentials,
          customInstructions: opt(b.custom_instructions),
        }),
      );
    },
  );

  app.delete(
    "/connectors/:id",
    { preValidation: objectBodyIfAny, schema: { tags, params: ConnectorParams, response: { 200: ConnectorDeleted, ...envelopeErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await service.delete(org, req.params.id));
    },
  );

  app.get(
    "/connectors/:id/discover",
    {
      schema: {
        tags,
        params: ConnectorParams,
        querystring: DiscoverQuery,
        response: { 200: DiscoverPage, ...envelopeErrors(...AUTHENTICATED, 404, 422, 502) },
      },
    },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const limit = Math.min(100, req.query.limit ?? 100);
      return send(reply, await service.discover(org, req.params.id, { cursor: req.query.cursor ?? null, limit }));
    },
  );

  app.post(
    "/connectors/:id/configure",
    { schema: { tags, params: ConnectorParams, body: ConfigureBody, response: { 200: Configured, ...envelopeErrors(...WITH_BODY, 404, 409, 422, 502) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const resources = req.body.resources.map((r, i) => ({
        resourceId: r.resource_id,
        resourceType: opt(r.resource_type),
        name: opt(r.name),
        collection: pickAliased<string>(req, r, "collection", "sub_tenant_id") ?? undefined,
        metadata: opt(r.metadata),
        additionalMetadata: opt(r.additional_metadata),
        customInstructions: opt(r.custom_instructions),
        acl: opt(r.acl),
        index: i,
      }));
      return send(reply, await service.configure(org, req.params.id, resources, opt(req.body.lookback_days)));
    },
  );

  app.post(
    "/connectors/:id/sync",
    { preValidation: objectBodyIfAny, schema: { tags, params: ConnectorParams, response: { 202: SyncRequested, ...envelopeErrors(...WITH_BODY, 404, 409) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await control.requestSync(org, req.params.id), 202);
    },
  );

  app.get(
    "/connectors/:id/resources",
    { schema: { tags, params: ConnectorParams, response: { 200: ResourceList, ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await service.listResources(org, req.params.id));
    },
  );

  app.post(
    "/connectors/:id/resources",
    {
      schema: { tags, params: ConnectorParams, body: ResourceCreateBody, response: { 201: ResourceView, ...envelopeErrors(...WITH_BODY, 404, 409, 422, 502) } },
    },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const b = req.body;
      const created = await service.addResource(org, req.params.id, {
        resourceId: b.resource_id,
        resourceType: opt(b.resource_type),
        name: opt(b.display_name),
        collection: pickAliased<string>(req, b, "collection_override", "sub_tenant_id_override") ?? undefined,
        metadata: opt(b.metadata),
        additionalMetadata: opt(b.additional_metadata),
        providerMetadata: opt(b.provider_metadata),
        lookbackDays: opt(b.filters?.lookback_days),
      });
      return send(reply, created, 201);
    },
  );

  app.delete(
    "/connectors/:id/resources/:resource_id",
    { preValidation: objectBodyIfAny, schema: { tags, params: ResourceParams, response: { 200: ResourceDeleted, ...envelopeErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await service.deleteResource(org, req.params.id, req.params.resource_id));
    },
  );

  app.post(
    "/connectors/:id/pause",
    { preValidation: objectBodyIfAny, schema: { tags, params: ConnectorParams, response: { 200: Paused, ...envelopeErrors(...WITH_BODY, 404, 409) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await control.pause(org, req.params.id));
    },
  );

  app.post(
    "/connectors/:id/resume",
    { preValidation: objectBodyIfAny, schema: { tags, params: ConnectorParams, response: { 200: Resumed, ...envelopeErrors(...WITH_BODY, 404, 409) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await control.resume(org, req.params.id));
    },
  );

  app.get(
    "/connectors/:id/status",
    { schema: { tags, params: ConnectorParams, response: { 200: ConnectorStatus, ...envelopeErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return send(reply, await service.status(org, req.params.id));
    },
  );
}
