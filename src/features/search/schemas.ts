import { Type } from "@sinclair/typebox";
import { NullableInteger, NullableString, OpenObject } from "../../platform/http/response-schemas.js";
import { EntitySchema, RelationSchema } from "../context-graph/schemas.js";

const name = Type.String({ minLength: 1, maxLength: 128 });

/** POST /query. Deprecated aliases (tenant_id, sub_tenant_id, sub_tenant_ids) are accepted. */
export const QueryBody = Type.Object({
  database: Type.Optional(name),
  tenant_id: Type.Optional(name),
  collection: Type.Optional(Type.Union([name, Type.Null()])),
  sub_tenant_id: Type.Optional(Type.Union([name, Type.Null()])),
  sub_tenant_ids: Type.Optional(Type.Union([Type.Array(name, { maxItems: 100 }), Type.Null()])),
  query: Type.String({ minLength: 1, maxLength: 10_000 }),
  type: Type.Optional(Type.Union([Type.Literal("knowledge"), Type.Literal("memory"), Type.Literal("all")])),
  query_by: Type.Optional(Type.Union([Type.Literal("hybrid"), Type.Literal("text")])),
  operator: Type.Optional(Type.Union([Type.Literal("or"), Type.Literal("and"), Type.Literal("phrase")])),
  mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("thinking")])),
  graph_context: Type.Optional(Type.Boolean()),
  query_forceful_relations: Type.Optional(Type.Boolean()),
  query_apps: Type.Optional(Type.Boolean()),
  ids: Type.Optional(
    Type.Union([Type.Array(Type.String({ minLength: 1 }), { maxItems: 1000 }), Type.Null()], {
      description:
        "Only these items (their ids, knowledge or memory) are searched, with every other filter applied too; none of them matching is an empty result. Empty or null: no restriction.",
    }),
  ),
  metadata_filters: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  max_results: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()])),
  alpha: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Literal("auto"), Type.Null()])),
  recency_bias: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
  additional_context: Type.Optional(
    Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()], {
      description:
        "Vendor SDK field ('additional context to guide retrieval'). Accepted for compatibility and ignored: the interface does not define what it does to ranking. Not to be confused with data.additional_context in the answer.",
    }),
  ),
  acl: Type.Optional(Type.Union([Type.Array(Type.String({ minLength: 1 }), { maxItems: 100 }), Type.String(), Type.Null()])),
});

// Response: `data` of POST /query (and the body of the v1 recall routes).

const metadataFields = {
  /** Schema-aligned metadata: values as stored, free-form by design. */
  metadata: OpenObject,
  /** Free-form metadata. */
  additional_metadata: OpenObject,
};
const appFields = {
  app_kind: NullableString,
  app_provider: NullableString,
  app_external_id: NullableString,
};

/** result-views.ts chunkView: one ranked chunk. */
const ChunkSchema = Type.Object({
  chunk_uuid: Type.String(),
  id: Type.String(),
  source_id: Type.String(),
  chunk_content: Type.String(),
  source_type: Type.String(),
  source_title: Type.String(),
  source_upload_time: NullableString,
  source_last_updated_time: NullableString,
  layout: Type.Null(),
  relevancy_score: Type.Number(),
  ...metadataFields,
  extra_context_ids: Type.Array(Type.String()),
  type: Type.Union([Type.Literal("knowledge"), Type.Literal("memory")]),
  collection: Type.String(),
  position: Type.Integer(),
  section_path: Type.Array(Type.String()),
  page: NullableInteger,
  timestamp: NullableString,
  ...appFields,
  thread_id: NullableString,
  inferred_content: Type.Optional(Type.String()),
  user_name: Type.Optional(NullableString),
});

/** result-views.ts sourceView: a cited item. */
const SourceSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  type: Type.String(),
  description: Type.String(),
  url: Type.String(),
  timestamp: NullableString,
  ...metadataFields,
  ...appFields,
  collection: Type.String(),
  corpus: Type.Union([Type.Literal("knowledge"), Type.Literal("memory")]),
});

const ScoredPathSchema = Type.Object({
  triplets: Type.Array(Type.Object({ source: EntitySchema, relation: RelationSchema, target: EntitySchema })),
  relevancy_score: Type.Number(),
  combined_context: NullableString,
  group_id: Type.String(),
  source_chunk_ids: Type.Array(Type.String()),
});

export const QueryResultSchema = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  chunks: Type.Array(ChunkSchema),
  sources: Type.Array(SourceSchema),
  graph_context: Type.Optional(
    Type.Object({
      query_paths: Type.Array(ScoredPathSchema),
      chunk_relations: Type.Array(ScoredPathSchema),
      chunk_id_to_group_ids: Type.Record(Type.String(), Type.Array(Type.String())),
    }),
  ),
  /** Chunks of forcefully related and graph-connected items, by chunk_uuid. */
  additional_context: Type.Record(Type.String(), ChunkSchema),
});
