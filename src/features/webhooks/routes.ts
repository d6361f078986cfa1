import type { FastifyReply, FastifyRequest } from "fastify";
import { invalidInput } from "../../platform/errors/app-error.js";
import type { App } from "../../platform/http/app-type.js";
import { orgTenancyOf } from "../../platform/http/auth.js";
import { AUTHENTICATED, legacyErrors, WITH_BODY } from "../../platform/http/response-schemas.js";
import {
  DeletedResponse,
  DeliveryListQuery,
  DeliveryListResponse,
  DeliveryParams,
  DeliveryResponse,
  RegisteredResponse,
  RegisterBody,
  RegistrationResponse,
  RetryResponse,
  SigningSecretBody,
  SigningSecretResponse,
  TestResponse,
} from "./schemas.js";
import type { WebhookService } from "./service.js";
import { decodeCursor, deliveryView, encodeCursor, parseStatusFilter } from "./views.js";

// These responses are not wrapped in the envelope (interface: Webhooks). The same object is
// mirrored under `data`, where the vendor SDK's typed accessors look for it.
const config = { shape: "plain" as const };
const tags = ["Webhooks"];

function sendPlain(reply: FastifyReply, body: Record<string, unknown>, status = 200): FastifyReply {
  return reply.code(status).send({ ...body, data: body });
}

// Routes without fields take no body or a JSON object (ignored); a bare JSON null, array or
// scalar is malformed. (A missing body reaches schema validation as null, hence this hook.)
async function objectBodyIfAny(req: FastifyRequest): Promise<void> {
  if (req.body !== undefined && (req.body === null || typeof req.body !== "object" || Array.isArray(req.body))) {
    throw invalidInput("The body must be a JSON object when present");
  }
}
const noFields = { config, preValidation: objectBodyIfAny };

export function registerWebhookRoutes(app: App, service: WebhookService): void {
  app.get(
    "/webhooks/indexing",
    { config, schema: { tags, response: { 200: RegistrationResponse, ...legacyErrors(...AUTHENTICATED) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return sendPlain(reply, { ...(await service.get(org)) });
    },
  );

  app.post(
    "/webhooks/indexing",
    { config, schema: { tags, body: RegisterBody, response: { 200: RegisteredResponse, ...legacyErrors(...WITH_BODY, 422) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const { generated, ...view } = await service.register(org, {
        url: req.body.url,
        eventTypes: req.body.event_types,
        signingSecret: req.body.signing_secret,
        generateSigningSecret: req.body.generate_signing_secret,
      });
      const body: Record<string, unknown> = { ...view, message: "Webhook registered" };
      if (generated !== null) {
        body.signing_secret = generated;
        body.message = "Webhook registered; store the signing secret now, it is not shown again";
      }
      return sendPlain(reply, body);
    },
  );

  app.delete("/webhooks/indexing", { ...noFields, schema: { tags, response: { 200: DeletedResponse, ...legacyErrors(...WITH_BODY) } } }, async (req, reply) => {
    const org = orgTenancyOf(req);
    const deleted = await service.delete(org);
    return sendPlain(reply, { deleted, message: deleted ? "Webhook deleted" : "No webhook was registered" });
  });

  app.post(
    "/webhooks/indexing/signing-secret",
    { ...noFields, schema: { tags, body: SigningSecretBody, response: { 200: SigningSecretResponse, ...legacyErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const change = await service.setSecret(org, req.body?.signing_secret);
      const body: Record<string, unknown> = { signing_secret_configured: change.configured, message: "Signing secret set" };
      if (change.generated !== null) {
        body.signing_secret = change.generated;
        body.message = "Signing secret generated; store it now, it is not shown again";
      }
      return sendPlain(reply, body);
    },
  );

  app.delete(
    "/webhooks/indexing/signing-secret",
    { ...noFields, schema: { tags, response: { 200: SigningSecretResponse, ...legacyErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const change = await service.disableSigning(org);
      return sendPlain(reply, { signing_secret_configured: change.configured, message: "Signing disabled; deliveries are no longer signed" });
    },
  );

  app.get(
    "/webhooks/indexing/deliveries",
    { config, schema: { tags, querystring: DeliveryListQuery, response: { 200: DeliveryListResponse, ...legacyErrors(...AUTHENTICATED) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const limit = req.query.limit ?? 50;
      const rows = await service.listDeliveries(org, {
        status: parseStatusFilter(req.query.status),
        after: decodeCursor(req.query.cursor),
        limit,
      });
      const last = rows[rows.length - 1];
      return sendPlain(reply, {
        deliveries: rows.map(deliveryView),
        count: rows.length,
        next_cursor: last && rows.length === limit ? encodeCursor(last) : null,
      });
    },
  );

  app.get(
    "/webhooks/indexing/deliveries/:delivery_id",
    { config, schema: { tags, params: DeliveryParams, response: { 200: DeliveryResponse, ...legacyErrors(...AUTHENTICATED, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      return sendPlain(reply, deliveryView(await service.getDelivery(org, req.params.delivery_id)));
    },
  );

  app.post(
    "/webhooks/indexing/deliveries/:delivery_id/retry",
    { ...noFields, schema: { tags, params: DeliveryParams, response: { 200: RetryResponse, 202: RetryResponse, ...legacyErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const result = await service.retry(org, req.params.delivery_id);
      return sendPlain(reply, { delivery_id: req.params.delivery_id, ...result }, result.queued ? 202 : 200);
    },
  );

  app.post(
    "/webhooks/indexing/test",
    { ...noFields, schema: { tags, response: { 200: TestResponse, ...legacyErrors(...WITH_BODY, 404) } } },
    async (req, reply) => {
      const org = orgTenancyOf(req);
      const result = await service.test(org);
      return sendPlain(reply, { delivered: result.delivered, status_code: result.statusCode, message: result.message });
    },
  );
}
