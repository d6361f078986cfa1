import { Type } from "@sinclair/typebox";

// Responses of the liveness and readiness probes: bare objects; errors take the {detail} shape.

export const HealthSchema = Type.Object({ status: Type.String({ description: "always ok" }) });

/** 200 `ready`; 503 `migrating`, `store unreachable`, or `store not writable` with the reason and since when. */
export const ReadinessSchema = Type.Object({
  status: Type.String(),
  backend: Type.Union([Type.Literal("sqlite"), Type.Literal("postgres")]),
  reason: Type.Optional(Type.String()),
  since: Type.Optional(Type.String({ format: "date-time" })),
});
