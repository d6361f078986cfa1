import { Type } from "@sinclair/typebox";

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
