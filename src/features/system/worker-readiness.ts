import type { QueueDepth } from "../../platform/jobs/job-store.js";

/** What readiness asks of this process's job workers and the queue (the composition root binds them). */
export interface WorkerProbe {
  /** WORKERS > 0 (or INGEST_WORKERS > 0): this process is meant to run jobs. */
  readonly enabled: boolean;
  /** Claiming now: started and not stopping. */
  running(): boolean;
  /** Age of the least recent worker loop round (null: none claims). */
  heartbeatAgeMs(): number | null;
  /** A worker loop whose last round is older than this is stalled (a claim hanging, a blocked event loop). */
  readonly stallAfterMs: number;
  depthByKind(): Promise<QueueDepth[]>;
}

export interface WorkerFacts {
  readonly enabled: boolean;
  readonly running: boolean;
  readonly heartbeat_age_ms: number | null;
}

export interface QueueFacts {
  readonly due: number;
  readonly running: number;
  readonly delayed: number;
  readonly oldest_due_age_ms: number | null;
}

export interface WorkerReadiness {
  readonly workers: WorkerFacts;
  readonly queue: QueueFacts;
  /** Why this process is not ready, or null. */
  readonly problem: { readonly status: "workers not running" | "workers stalled"; readonly reason: string } | null;
}

/**
 * The workers' part of readiness: a process meant to run jobs is not ready while its worker loop
 * is not running (not started yet, stopping) or has not gone round for `stallAfterMs`. An
 * API-only process (WORKERS=0) is ready without workers. The queue's totals are reported either
 * way; a long queue alone does not make a process unready (other processes may be draining it).
 */
export async function workerReadiness(probe: WorkerProbe, now: number = Date.now()): Promise<WorkerReadiness> {
  const depth = await probe.depthByKind();
  const oldest = depth.map((d) => d.oldestDueRunAt).filter((at): at is number => at !== null);
  const queue: QueueFacts = {
    due: depth.reduce((n, d) => n + d.due, 0),
    running: depth.reduce((n, d) => n + d.running, 0),
    delayed: depth.reduce((n, d) => n + d.delayed, 0),
    oldest_due_age_ms: oldest.length === 0 ? null : Math.max(0, now - Math.min(...oldest)),
  };
  const running = probe.running();
  const age = probe.heartbeatAgeMs();
  const workers: WorkerFacts = { enabled: probe.enabled, running, heartbeat_age_ms: age };
  if (!probe.enabled) return { workers, queue, problem: null };
  if (!running)
    return { workers, queue, problem: { status: "workers not running", reason: "this process runs jobs (WORKERS > 0) but its workers are not running" } };
  if (age !== null && age > probe.stallAfterMs) {
    return {
      workers,
      queue,
      problem: { status: "workers stalled", reason: `the job worker loop has not gone round for ${age} ms (limit ${probe.stallAfterMs} ms)` },
    };
  }
  return { workers, queue, problem: null };
}
