import { BackgroundGate } from "./background-gate.js";
import { JOB_KINDS, type JobKind } from "./catalog.js";
import type { JobQueue } from "./queue.js";
import { JobWorker, type JobHandlers, type WorkerOptions } from "./worker.js";

export interface PoolOptions extends Omit<WorkerOptions, "concurrency" | "kinds" | "schedules"> {
  /** Concurrency for every job kind except ingestion. */
  readonly concurrency: number;
  /** Concurrency for `ingest.item`, kept separate so that many small pipeline jobs can feed the
   *  embedder large batches without starving deliveries and maintenance jobs. */
  readonly ingestConcurrency: number;
}

/** The kinds each lane claims: items to searchable, their graphs, and everything else. */
export const INGEST: readonly JobKind[] = ["ingest.item"];
const GRAPH: readonly JobKind[] = ["ingest.graph"];
export const OTHERS: readonly JobKind[] = JOB_KINDS.filter((k) => !INGEST.includes(k) && !GRAPH.includes(k));

/** Graph building's share of the time while this process is making items searchable. */
const GRAPH_SHARE_WHILE_INDEXING = 0.1;

/**
 * The workers of one process: one for ingestion up to searchable, one for graph building at
 * background priority (it yields to ingestion, which competes with it for the CPU: the local
 * embedder's threads), one for everything else.
 */
export class WorkerPool {
  private readonly workers: JobWorker[];
  private readonly configured: boolean;

  constructor(queue: JobQueue, handlers: JobHandlers, options: PoolOptions) {
    this.configured = options.concurrency > 0 || options.ingestConcurrency > 0;
    const ingest = new JobWorker(queue, handlers, { ...options, concurrency: options.ingestConcurrency, kinds: INGEST, schedules: false });
    const gate = new BackgroundGate(() => ingest.active > 0, GRAPH_SHARE_WHILE_INDEXING);
    this.workers = [
      new JobWorker(queue, handlers, { ...options, concurrency: options.concurrency, kinds: OTHERS, schedules: true }),
      ingest,
      new JobWorker(queue, handlers, { ...options, concurrency: options.concurrency, kinds: GRAPH, schedules: false, gate }),
    ];
  }

  start(): void {
    for (const w of this.workers) w.start();
  }

  /** Whether this process takes jobs now: started, not stopping, and not an API-only node (WORKERS=0). */
  get running(): boolean {
    return this.workers.some((w) => w.claiming);
  }

  /**
   * Age in ms of the least recent round among the lanes that claim jobs (each goes round at least
   * every JOB_POLL_MS while it is healthy); null when none claims or none has gone round yet.
   */
  heartbeatAgeMs(now: number = Date.now()): number | null {
    const rounds = this.workers.filter((w) => w.claiming).map((w) => w.lastRoundAt);
    if (rounds.length === 0 || rounds.some((r) => r === null)) return null;
    return now - Math.min(...rounds.map((r) => r ?? now));
  }

  /** Whether this process is configured to run jobs at all (WORKERS > 0). */
  get enabled(): boolean {
    return this.configured;
  }

  wake(): void {
    for (const w of this.workers) w.wake();
  }

  async stop(timeoutMs: number): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop(timeoutMs)));
  }
}
