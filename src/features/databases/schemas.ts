import { Type } from "@sinclair/typebox";
import { invalidInput } from "../../platform/errors/app-error.js";

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
  is_embeddings_tenant: Type.Optional(
    Type.Boolean({
      description:
        "Vendor SDK field: true asks for a database the client fills with its own vectors. Not supported: this service embeds content itself, so true is answered 400 INVALID_INPUT; false (the default) is accepted.",
    }),
  ),
  embeddings_dimension: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 65_536 }), Type.Null()], {
      description: "Vendor SDK field, only meaningful with is_embeddings_tenant=true: a number is answered 400 INVALID_INPUT; null is accepted.",
    }),
  ),
});

/**
 * Client-supplied-vector databases ("embeddings tenants" of the vendor SDK) do not exist here:
 * accepting the request and creating an ordinary database would leave the client pushing
 * vectors nowhere, so the request is refused with the reason instead.
 */
export function rejectEmbeddingsDatabase(body: { is_embeddings_tenant?: boolean; embeddings_dimension?: number | null }): void {
  if (body.is_embeddings_tenant === true || (body.embeddings_dimension !== undefined && body.embeddings_dimension !== null)) {
    throw invalidInput(
      "'is_embeddings_tenant' / 'embeddings_dimension' (a database filled with your own vectors) is not supported: " +
        "this service embeds ingested content itself; omit both fields (or send false / null)",
    );
  }
}

export const DeleteDatabaseBody = Type.Union([Type.Object({ database: Type.Optional(name), tenant_id: Type.Optional(name) }), Type.Null()]);

export const SchemaPatchBody = Type.Object({
  fields: Type.Optional(Type.Unknown()),
  database_metadata_schema: Type.Optional(Type.Unknown()),
});

export const DatabaseParams = Type.Object({ database: name });
