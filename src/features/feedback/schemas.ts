import { Type, type Static, type TSchema } from "@sinclair/typebox";

/** Optional fields also accept null: clients often send unset fields that way. */
const optional = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const name = Type.String({ minLength: 1 });

export const RATINGS = ["positive", "negative", "neutral"] as const;
export const SOURCES = ["user", "agent"] as const;

const GroundTruthBody = Type.Object({
  answer: optional(Type.String()),
  source_ids: optional(Type.Array(Type.String())),
});

export const FeedbackBody = Type.Object({
  request_id: Type.String(),
  feedback: optional(Type.String()),
  rating: optional(Type.Union(RATINGS.map((r) => Type.Literal(r)))),
  source: optional(Type.Union(SOURCES.map((s) => Type.Literal(s)))),
  database: optional(name),
  tenant_id: optional(name),
  collection: optional(name),
  sub_tenant_id: optional(name),
  ground_truth: optional(GroundTruthBody),
  metadata: optional(Type.Record(Type.String(), Type.Unknown())),
});

export type FeedbackBodyType = Static<typeof FeedbackBody>;

/** Response: the feedback record (the `data` of POST /feedback). */
export const FeedbackRecorded = Type.Object({
  success: Type.Literal(true),
  feedback_id: Type.String({ format: "uuid" }),
  request_id: Type.String(),
  recorded: Type.Boolean(),
  created_at: Type.String({ format: "date-time" }),
  message: Type.String(),
});
