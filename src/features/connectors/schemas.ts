import { Type, type TSchema } from "@sinclair/typebox";

const optional = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const name = Type.String({ minLength: 1, maxLength: 128 });
const freeObject = Type.Record(Type.String(), Type.Unknown());

export const ConnectorParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
export const ResourceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }), resource_id: Type.String({ minLength: 1, maxLength: 500 }) });

export const ProvidersQuery = Type.Object({ id: Type.Optional(Type.String({ maxLength: 64 })) });
export const ListQuery = Type.Object({ provider: Type.Optional(Type.String({ maxLength: 64 })) });
export const DiscoverQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 4096 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

/** POST /connectors. `tenant_id` / `sub_tenant_id` are the deprecated aliases of database / collection. */
export const CreateBody = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 64 }),
  name: optional(Type.String({ maxLength: 200 })),
  database: optional(name),
  tenant_id: optional(name),
  collection: optional(name),
  sub_tenant_id: optional(name),
  provider_account_scope: optional(Type.String({ maxLength: 256 })),
  credentials: Type.Unknown(),
  auth_type: optional(Type.String({ maxLength: 32 })),
  sync_interval_seconds: optional(Type.Integer()),
  sync_engine: optional(Type.String({ maxLength: 32 })),
  custom_instructions: optional(Type.String()),
});

/** PATCH /connectors/{id}: every other field is ignored. */
export const PatchBody = Type.Object({
  sync_interval_seconds: optional(Type.Integer()),
  credentials: Type.Optional(Type.Unknown()),
  custom_instructions: optional(Type.String()),
});

const ResourceMapping = Type.Object({
  resource_id: Type.String({ minLength: 1, maxLength: 500 }),
  resource_type: optional(Type.String({ maxLength: 64 })),
  name: optional(Type.String({ maxLength: 500 })),
  collection: optional(name),
  sub_tenant_id: optional(name),
  metadata: optional(freeObject),
  additional_metadata: optional(freeObject),
  custom_instructions: optional(Type.String()),
  acl: optional(Type.Array(Type.String({ minLength: 1, maxLength: 320 }), { maxItems: 1000 })),
});

export const ConfigureBody = Type.Object({
  resources: Type.Array(ResourceMapping, { minItems: 1, maxItems: 500 }),
  lookback_days: optional(Type.Integer()),
  backfill_chunk_interval_seconds: optional(Type.Integer()),
});

export const ResourceCreateBody = Type.Object({
  resource_id: Type.String({ minLength: 1, maxLength: 500 }),
  resource_type: optional(Type.String({ maxLength: 64 })),
  display_name: optional(Type.String({ maxLength: 500 })),
  collection_override: optional(name),
  sub_tenant_id_override: optional(name),
  metadata: optional(freeObject),
  additional_metadata: optional(freeObject),
  filters: optional(Type.Object({ lookback_days: optional(Type.Integer()) })),
  provider_metadata: optional(freeObject),
});
