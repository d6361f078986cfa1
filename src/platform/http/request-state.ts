import type { Principal } from "../../features/organizations/service.js";

export interface DeprecationNotice {
  deprecated: true;
  message: string;
  deprecated_since: string;
  deprecated_field?: string;
  preferred_field?: string;
}

/** How errors (and, for some areas, successes) of a route are shaped on the wire. */
export type ResponseShape = "envelope" | "legacy" | "plain";

/** Per-request facts gathered at the edge and read by the envelope renderer. */
export interface RequestState {
  readonly startedAt: bigint;
  readonly deprecations: DeprecationNotice[];
  principal: Principal | null;
  database: string | null;
  collection: string | null;
}

declare module "fastify" {
  interface FastifyRequest {
    state: RequestState;
  }
  interface FastifyContextConfig {
    /** Envelope (v2, default), legacy {detail} errors (v1, graph area) or plain objects (webhooks). */
    shape?: ResponseShape;
    /** false for unauthenticated routes (health, docs). */
    auth?: boolean;
    /** The graph area answers 403 rather than 401 for a missing or invalid key. */
    authFailureStatus?: 401 | 403;
    /** Set on deprecated routes: every response carries the notice and `Deprecation: true`. */
    deprecatedRoute?: { message: string; preferred?: string };
    /** The route reads application/x-www-form-urlencoded bodies itself (the ingest routes); elsewhere they are refused. */
    formBody?: boolean;
    /** Its "incoming request" and "request completed" lines are debug, not info (the health probes); see request-log.ts. */
    quietRequestLog?: boolean;
  }
}

export const DEPRECATED_SINCE = "2.0";
