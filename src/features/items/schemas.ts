import { Type } from "@sinclair/typebox";
import { AnyJson, NullableString, OpenObject, PaginationSchema, payloadOf } from "../../platform/http/response-schemas.js";

// Response schemas of the item routes: list, status, inspect, metadata edits and deletes.
// metadata, additional_metadata and relations are free-form objects (spec), declared open.

const corpus = Type.Union([Type.Literal("knowledge"), Type.Literal("memory")]);
const scope = {
  database: Type.String(),
  collection: Type.String(),
  tenant_id: Type.String(),
  sub_tenant_id: Type.String(),
};
const app = {
  app_kind: NullableString,
  app_provider: NullableString,
  app_external_id: NullableString,
};

/** item-render.ts commentRow: a folded comment or message under its thread root. */
const CommentSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  ...app,
  timestamp: NullableString,
  text: NullableString,
  author: NullableString,
});

/** item-render.ts knowledgeRow: the optional fields are those `include_fields` selects. */
const KnowledgeRowSchema = Type.Object({
  id: Type.String(),
  ...scope,
  title: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  description: Type.Optional(NullableString),
  note: Type.Optional(NullableString),
  timestamp: Type.Optional(NullableString),
  metadata: Type.Optional(OpenObject),
  additional_metadata: Type.Optional(OpenObject),
  relations: Type.Optional(OpenObject),
  ...app,
  comments_truncated: Type.Boolean(),
  comments: Type.Optional(Type.Array(CommentSchema)),
});

/** item-render.ts memoryRow. */
const MemoryRowSchema = Type.Object({
  memory_id: Type.String(),
  memory_content: Type.String(),
  inferred_content: Type.String(),
  id: Type.String(),
  ...scope,
  title: Type.String(),
  timestamp: NullableString,
  metadata: OpenObject,
  additional_metadata: OpenObject,
  relations: OpenObject,
  expires_at: NullableString,
});

export const ListResultSchema = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  sources: Type.Optional(Type.Array(KnowledgeRowSchema)),
  user_memories: Type.Optional(Type.Array(MemoryRowSchema)),
  total: Type.Integer(),
  pagination: PaginationSchema,
});

/** The processing status object (`statuses[]`). */
const StatusRowSchema = Type.Object({
  id: Type.String(),
  indexing_status: Type.String(),
  error_code: Type.String(),
  message: Type.String(),
});
export const StatusListSchema = payloadOf({ statuses: Type.Array(StatusRowSchema) });

/** inspect-service.ts inspect: one item with its content, and for files a signed download URL. */
export const InspectResultSchema = payloadOf({
  id: Type.String(),
  ...scope,
  source_type: corpus,
  title: Type.String(),
  type: Type.String(),
  description: NullableString,
  note: NullableString,
  url: NullableString,
  timestamp: NullableString,
  metadata: OpenObject,
  additional_metadata: OpenObject,
  relations: OpenObject,
  ...app,
  indexing_status: Type.String(),
  chunk_count: Type.Integer(),
  /** What was ingested (the app item or the memory), as sent: free-form. */
  original: AnyJson,
  content: NullableString,
  content_base64: NullableString,
  presigned_url: NullableString,
  content_type: Type.String(),
  size_bytes: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Null(),
  memory_content: Type.Optional(Type.String()),
  inferred_content: Type.Optional(Type.String()),
  expires_at: Type.Optional(NullableString),
  file_name: Type.Optional(NullableString),
  url_expires_at: Type.Optional(Type.String()),
  /** With include_chunks=true: the indexed chunks in order. */
  chunks: Type.Optional(
    Type.Array(
      Type.Object({
        chunk_uuid: Type.String(),
        position: Type.Integer(),
        content: Type.String(),
        section_path: Type.String(),
        page: Type.Union([Type.Integer(), Type.Null()]),
      }),
    ),
  ),
});

/** GET /context/files/:token answers the file's bytes with its own content type. */
export const FileDownloadSchema = { content: { "*/*": { schema: Type.Unsafe<Buffer>({ type: "string", format: "binary" }) } } };

export const MetadataPatchedSchema = payloadOf({ id: Type.String(), metadata: OpenObject, additional_metadata: OpenObject });

/** The outcome of a delete by ids (v2 DELETE /context and the v1 delete routes). */
export const DeleteOutcomeSchema = payloadOf({
  results: Type.Array(Type.Object({ id: Type.String(), deleted: Type.Boolean(), error: NullableString, error_code: Type.Optional(Type.String()) })),
  deleted_count: Type.Integer(),
  user_memory_deleted: Type.Optional(Type.Boolean()),
});
