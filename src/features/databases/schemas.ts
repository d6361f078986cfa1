import { Type } from "@sinclair/typebox";
import { invalidInput } from "../../platform/errors/app-error.js";
import { payloadOf } from "../../platform/http/response-schemas.js";
import { FIELD_TYPES } from "./metadata-schema.js";

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

/** DELETE /databases/collections: the scope in the query string (as the vendor's MCP sends it) or a JSON body. */
export const CollectionScopeQuery = Type.Object({
  database: Type.Optional(name),
  tenant_id: Type.Optional(name),
  collection: Type.Optional(name),
  sub_tenant_id: Type.Optional(name),
});
export const DeleteCollectionBody = Type.Union([CollectionScopeQuery, Type.Null()]);

export const DeleteDatabaseBody = Type.Union([Type.Object({ database: Type.Optional(name), tenant_id: Type.Optional(name) }), Type.Null()]);

export const SchemaPatchBody = Type.Object({
  fields: Type.Optional(Type.Unknown()),
  database_metadata_schema: Type.Optional(Type.Unknown()),
});

export const DatabaseParams = Type.Object({ database: name });

// Response schemas: the `data` of each route's envelope (the /tenants aliases reuse them).

const SchemaFieldSchema = Type.Object({
  name: Type.String(),
  data_type: Type.Union(FIELD_TYPES.map((t) => Type.Literal(t))),
  max_length: Type.Optional(Type.Integer()),
  enable_match: Type.Boolean(),
  enable_dense_embedding: Type.Boolean(),
  enable_sparse_embedding: Type.Boolean(),
  enable_analyzer: Type.Optional(Type.Boolean()),
  nullable: Type.Boolean(),
  description: Type.Optional(Type.String()),
});

const DatabaseViewProperties = {
  database: Type.String(),
  kind: Type.Union([Type.Literal("context"), Type.Literal("graph")]),
  status: Type.String(),
  database_metadata_schema: Type.Array(SchemaFieldSchema),
  created_at: Type.String({ format: "date-time" }),
  updated_at: Type.String({ format: "date-time" }),
};

export const InfraSchema = Type.Object({
  ready_for_ingestion: Type.Boolean(),
  scheduler_status: Type.Boolean(),
  graph_status: Type.Boolean(),
  vectorstore_status: Type.Object({ knowledge: Type.Boolean(), memories: Type.Boolean() }),
});

const CollectionStats = Type.Object({ row_count: Type.Integer(), dimensions: Type.Integer() });
/** DatabaseStats.of: counts by kind (each subsystem adds its own) and the legacy collection shape. */
export const StatsProperties = {
  database: Type.String(),
  tenant_id: Type.String(),
  counts: Type.Record(Type.String(), Type.Integer()),
  knowledge_collection: CollectionStats,
  memory_collection: CollectionStats,
};

export const DatabaseAccepted = payloadOf({ database: Type.String(), status: Type.String() });
export const DatabaseList = payloadOf({ databases: Type.Array(Type.Object(DatabaseViewProperties)), total: Type.Integer() });
export const DatabaseStatus = payloadOf({ database: Type.String(), org_id: Type.String(), status: Type.String(), infra: InfraSchema });
export const DeletedCollectionSchema = payloadOf({
  database: Type.String(),
  collection: Type.String(),
  status: Type.Literal("deleted"),
  existed: Type.Boolean({ description: "false: there was no such collection (deleting it is no error)" }),
  deleted_items: Type.Integer({ description: "items (and graph-area collections) removed" }),
});
export const CollectionList = payloadOf({ database: Type.String(), collections: Type.Array(Type.String()), total: Type.Integer() });
export const DatabaseStatsSchema = payloadOf(StatsProperties);
export const DatabaseSchemaUpdated = payloadOf(DatabaseViewProperties);
