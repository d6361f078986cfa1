import { Type, type TProperties, type TSchema } from "@sinclair/typebox";

const optional = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

export const RegisterBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  event_types: optional(Type.Array(Type.String())),
  signing_secret: optional(Type.String()),
  generate_signing_secret: optional(Type.Boolean()),
});

export const SigningSecretBody = Type.Union([Type.Object({ signing_secret: optional(Type.String()) }), Type.Null()]);

export const DeliveryListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String()),
  status: Type.Optional(Type.String()),
});

export const DeliveryParams = Type.Object({ delivery_id: Type.String({ minLength: 1, maxLength: 200 }) });

// Responses: bare objects (no envelope), mirrored under `data` for the vendor SDK (routes.ts sendPlain).
const plain = <P extends TProperties>(properties: P) => Type.Object({ ...properties, data: Type.Object(properties) });
const message = Type.String();

const registration = {
  registered: Type.Boolean(),
  url: Type.Union([Type.String(), Type.Null()]),
  event_types: Type.Array(Type.String()),
  signing_secret_configured: Type.Boolean(),
};
export const RegistrationResponse = plain(registration);
export const RegisteredResponse = plain({ ...registration, message, signing_secret: Type.Optional(Type.String()) });
export const DeletedResponse = plain({ deleted: Type.Boolean(), message });
export const SigningSecretResponse = plain({ signing_secret_configured: Type.Boolean(), message, signing_secret: Type.Optional(Type.String()) });

/** views.ts deliveryView. */
const delivery = {
  delivery_id: Type.String(),
  doc_id: Type.String(),
  event_type: Type.String(),
  indexing_status: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  error_code: Type.String(),
  error_message: Type.String(),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
  database: Type.String(),
  collection: Type.String(),
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
};
export const DeliveryResponse = plain(delivery);
export const DeliveryListResponse = plain({
  deliveries: Type.Array(Type.Object(delivery)),
  count: Type.Integer(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
export const RetryResponse = plain({ delivery_id: Type.String(), queued: Type.Boolean(), message });
export const TestResponse = plain({ delivered: Type.Boolean(), status_code: Type.Union([Type.Integer(), Type.Null()]), message });
