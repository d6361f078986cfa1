import { Type } from "@sinclair/typebox";

/** Request schemas of the database routes; they validate requests and feed the OpenAPI document. */
const name = Type.String({ minLength: 1, maxLength: 128 });

export const DatabaseScopeQuery = Type.Object({
  database: Type.Optional(name),
  tenant_id: Type.Optional(name),
});

export const CreateDatabaseBody = Type.Object({
  database: Type.Optional(name),
  tenant_id: Type.Optional(name),
  database_metadata_schema: Type.Optional(Type.Unknown()),
  tenant_metadata_schema: Type.Optional(Type.Unknown()),
  is_embeddings_tenant: Type.Optional(Type.Boolean()),
  embeddings_dimension: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 65_536 }), Type.Null()])),
});

export const DeleteDatabaseBody = Type.Union([
  Type.Object({ database: Type.Optional(name), tenant_id: Type.Optional(name) }),
  Type.Null(),
]);

export const SchemaPatchBody = Type.Object({
  fields: Type.Optional(Type.Unknown()),
  database_metadata_schema: Type.Optional(Type.Unknown()),
});

export const DatabaseParams = Type.Object({ database: name });
