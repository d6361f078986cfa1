import { Type, type Static, type TSchema } from "@sinclair/typebox";

/**
 * Every background job, declared once: payload schema, attempts, backoff, lease and
 * an optional schedule. Handlers are bound to these kinds at the composition root.
 */
export interface JobSpec<S extends TSchema = TSchema> {
  readonly payload: S;
  /** Attempts before the job is dead-lettered. */
  readonly maxAttempts: number;
  /** First retry delay; doubles per attempt, with full jitter, capped at maxBackoffMs. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
  /** A handler running longer than this is abandoned (and retried) by its worker. */
  readonly timeoutMs: number;
  /** Recurring jobs: one run per interval across all processes. */
  readonly everyMs?: number;
}

const spec = <S extends TSchema>(s: JobSpec<S>): JobSpec<S> => s;

export const JOB_CATALOG = {
  "database.provision": spec({
    payload: Type.Object({ databaseId: Type.String() }),
    maxAttempts: 8,
    backoffMs: 500,
    maxBackoffMs: 60_000,
    timeoutMs: 5 * 60_000,
  }),
  "database.delete": spec({
    payload: Type.Object({ databaseId: Type.String() }),
    maxAttempts: 10,
    backoffMs: 1_000,
    maxBackoffMs: 5 * 60_000,
    timeoutMs: 30 * 60_000,
  }),
  "ingest.item": spec({
    payload: Type.Object({ itemId: Type.String(), generation: Type.Integer() }),
    maxAttempts: 4,
    backoffMs: 1_000,
    maxBackoffMs: 60_000,
    timeoutMs: 10 * 60_000,
  }),
  /** Builds a searchable item's graph (graph_creation -> completed), at background priority. */
  "ingest.graph": spec({
    payload: Type.Object({ itemId: Type.String(), generation: Type.Integer() }),
    maxAttempts: 4,
    backoffMs: 1_000,
    maxBackoffMs: 60_000,
    timeoutMs: 10 * 60_000,
  }),
  /** Brings items whose pipeline job died (dead-lettered, lost) to a terminal state. */
  "ingest.reconcile": spec({
    payload: Type.Object({}),
    maxAttempts: 3,
    backoffMs: 5_000,
    maxBackoffMs: 60_000,
    timeoutMs: 5 * 60_000,
    everyMs: 60_000,
  }),
  /** Deletes memories whose expiry_time has passed. */
  "memory.purge-expired": spec({
    payload: Type.Object({}),
    maxAttempts: 3,
    backoffMs: 5_000,
    maxBackoffMs: 60_000,
    timeoutMs: 5 * 60_000,
    everyMs: 5 * 60_000,
  }),
  // One job per delivery attempt: the handler records the outcome and enqueues the next
  // attempt itself, with the WEBHOOK_RETRY_* schedule. These job-level retries only cover
  // infrastructure failures (the store unreachable while recording an outcome).
  "webhook.deliver": spec({
    payload: Type.Object({ deliveryId: Type.String(), attempt: Type.Integer({ minimum: 1 }) }),
    maxAttempts: 20,
    backoffMs: 1_000,
    maxBackoffMs: 10 * 60_000,
    timeoutMs: 2 * 60_000,
  }),
  /**
   * One connector sync run (or its continuation after a rate limit). Failures are handled by the
   * run itself (last_error, backoff, needs_reauth); these retries cover the store being down.
   */
  "connector.sync": spec({
    payload: Type.Object({ connectorId: Type.String(), runId: Type.String() }),
    maxAttempts: 5,
    backoffMs: 5_000,
    maxBackoffMs: 5 * 60_000,
    timeoutMs: 30 * 60_000,
  }),
  /** Starts the syncs of due connectors; any process may run it (runs are claimed on the row). */
  "connector.schedule": spec({
    payload: Type.Object({}),
    maxAttempts: 3,
    backoffMs: 5_000,
    maxBackoffMs: 60_000,
    timeoutMs: 5 * 60_000,
    everyMs: 60_000,
  }),
  "jobs.prune": spec({
    payload: Type.Object({}),
    maxAttempts: 3,
    backoffMs: 10_000,
    maxBackoffMs: 60_000,
    timeoutMs: 5 * 60_000,
    everyMs: 60 * 60_000,
  }),
} as const;

export type JobKind = keyof typeof JOB_CATALOG;
export type JobPayload<K extends JobKind> = Static<(typeof JOB_CATALOG)[K]["payload"]>;

export const JOB_KINDS = Object.keys(JOB_CATALOG) as JobKind[];

export function isJobKind(value: string): value is JobKind {
  return Object.prototype.hasOwnProperty.call(JOB_CATALOG, value);
}
