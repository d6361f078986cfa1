import { Type, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";
import { ERROR_STATUS, type ErrorCode } from "../errors/codes.js";

// The response pieces every route shares: the v2 envelope and its meta, the error bodies the one
// error handler renders (http/error-handler.ts), pagination. A route's `response` map is built from
// these and its feature's schemas; Fastify serialises with it, so undeclared fields never leave.

export const NullableString = Type.Union([Type.String(), Type.Null()]);
export const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
/** Free-form JSON object (metadata and the like): declared open on purpose. */
export const OpenObject = Type.Object({}, { additionalProperties: true });
/** Any JSON value (a metadata field, a Cypher value). */
export const AnyJson = Type.Unknown();

const DeprecationNoticeSchema = Type.Object({
  deprecated: Type.Literal(true),
  message: Type.String(),
  deprecated_since: Type.String(),
  deprecated_field: Type.Optional(Type.String()),
  preferred_field: Type.Optional(Type.String()),
});

/** `meta` of every v2 envelope (envelope.ts buildMeta). */
const MetaSchema = Type.Object({
  request_id: Type.String(),
  latency_ms: Type.Number(),
  api_version: Type.String(),
  database: Type.Optional(Type.String()),
  collection: Type.Optional(Type.String()),
  tenant_id: Type.Optional(Type.String()),
  sub_tenant_id: Type.Optional(Type.String()),
  deprecation: Type.Optional(Type.Array(DeprecationNoticeSchema)),
});

const ErrorCodeSchema = Type.Unsafe<ErrorCode>({ type: "string", enum: Object.keys(ERROR_STATUS) });

/** The v2 error envelope (envelope.ts errorEnvelope). */
const ErrorEnvelopeSchema = Type.Object({
  success: Type.Literal(false),
  data: Type.Null(),
  error: Type.Object({ code: ErrorCodeSchema, message: Type.String() }),
  meta: MetaSchema,
});

/** The `{detail}` error of the legacy shapes: v1, the graph area, webhooks (envelope.ts legacyError). */
const LegacyErrorSchema = Type.Object({
  detail: Type.Object({ success: Type.Literal(false), message: Type.String(), error_code: Type.Union([ErrorCodeSchema, Type.Null()]) }),
});

/** The v2 success envelope around `data`; `extra` adds top-level keys some legacy routes carry. */
export function envelopeOf<T extends TSchema, E extends TProperties = Record<never, never>>(data: T, extra?: E): TObject {
  return Type.Object({ ...(extra ?? {}), success: Type.Literal(true), data, error: Type.Null(), meta: MetaSchema });
}

/** `data` payloads of most v2 routes open with their own `success` and `message`. */
export function payloadOf<P extends TProperties>(properties: P) {
  return Type.Object({ success: Type.Boolean(), message: Type.String(), ...properties });
}

/**
 * The statuses every authenticated route can answer: 400 (an unsupported API-Version or an
 * invalid request), 401 (no or a bad key), 429 (rate limit), 500, 503 (store unavailable).
 * Routes with a body add 413. Unauthenticated routes list their own.
 */
export const AUTHENTICATED = [400, 401, 429, 500, 503] as const;
export const WITH_BODY = [...AUTHENTICATED, 413] as const;

type Status = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 502 | 503;

function errorsWith(schema: TSchema, statuses: readonly Status[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of [...statuses].sort()) out[s] = schema;
  return out;
}

/** Error responses of a v2 route (envelope shape) for the given statuses. */
export const envelopeErrors = (...statuses: readonly Status[]): Record<number, TSchema> => errorsWith(ErrorEnvelopeSchema, statuses);
/** Error responses of a route with the `{detail}` shape (v1, graph area, webhooks). */
export const legacyErrors = (...statuses: readonly Status[]): Record<number, TSchema> => errorsWith(LegacyErrorSchema, statuses);

/** Page-numbered lists (list-service.ts Pagination). */
export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  page_size: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
  has_next: Type.Boolean(),
  has_previous: Type.Boolean(),
});
