import { Type, type TSchema } from "@sinclair/typebox";

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
