import { Type } from "@sinclair/typebox";
import { NullableString } from "../../platform/http/response-schemas.js";

// Response schemas of the graph reads: they make serialisation fast (a 200-member subgraph with
// 500 auxiliary triplets is most of a response's time) and keep undeclared fields from leaking.

export const EntitySchema = Type.Object({
  name: Type.String(),
  type: Type.String(),
  namespace: Type.String(),
  entity_id: Type.String(),
  identifier: NullableString,
  provider: Type.Optional(Type.String()),
});

export const RelationSchema = Type.Object({
  canonical_predicate: Type.String(),
  raw_predicate: Type.String(),
  context: Type.String(),
  confidence: Type.Number(),
  temporal_details: NullableString,
  timestamp: Type.String(),
  relationship_id: Type.String(),
  chunk_id: Type.String(),
  source_entity_id: Type.String(),
  target_entity_id: Type.String(),
  synthesized: Type.Optional(Type.Boolean()),
});

const TripletSchema = Type.Object({
  source: EntitySchema,
  target: EntitySchema,
  relations: Type.Array(RelationSchema),
  chunk_id: Type.String(),
});

const MemberSchema = Type.Object({
  source_id: Type.String(),
  title: Type.String(),
  app_kind: NullableString,
  app_provider: NullableString,
  app_external_id: NullableString,
  thread_id: NullableString,
  depth: Type.Integer(),
  hydration: Type.String(),
  discovered_via: Type.Optional(Type.String()),
  discovered_relation: Type.Optional(Type.String()),
});

export const SubgraphSchema = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  seed_source_id: Type.String(),
  sources: Type.Array(MemberSchema),
  relations: Type.Array(TripletSchema),
  auxiliary_relations: Type.Array(TripletSchema),
  auxiliary_truncated: Type.Boolean(),
  is_truncated: Type.Boolean(),
  max_depth_reached: Type.Integer(),
});

export const RelationsPageSchema = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  relations: Type.Array(TripletSchema),
  is_truncated: Type.Boolean(),
  next_cursor: Type.Union([Type.Integer(), Type.Null()]),
});
