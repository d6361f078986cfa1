import { Type } from "@sinclair/typebox";

// Responses of the liveness and readiness probes: bare objects; errors take the {detail} shape.

export const HealthSchema = Type.Object({ status: Type.String({ description: "always ok" }) });

const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/**
 * 200 `ready`; 503 `migrating`, `store unreachable`, `store not writable` (with the reason and since
 * when), `workers not running` or `workers stalled` (with the reason). Once the store answers, the
 * workers' and the queue's facts come along.
 */
export const ReadinessSchema = Type.Object({
  status: Type.String(),
  backend: Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")]),
  reason: Type.Optional(Type.String()),
  since: Type.Optional(Type.String({ format: "date-time" })),
  workers: Type.Optional(
    Type.Object({
      enabled: Type.Boolean({ description: "this process is meant to run jobs (WORKERS > 0)" }),
      running: Type.Boolean({ description: "its workers claim jobs now" }),
      heartbeat_age_ms: Type.Union([Type.Number(), Type.Null()], { description: "since the least recent worker loop round" }),
    }),
  ),
  queue: Type.Optional(
    Type.Object({
      due: Type.Integer({ description: "jobs due and waiting, all processes" }),
      running: Type.Integer(),
      delayed: Type.Integer({ description: "retries and scheduled runs not yet due" }),
      oldest_due_age_ms: NullableInteger,
    }),
  ),
});
