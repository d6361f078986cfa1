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

const INGEST: readonly JobKind[] = ["ingest.item"];
const OTHERS: readonly JobKind[] = JOB_KINDS.filter((k) => !INGEST.includes(k));

/** The workers of one process: one for ingestion, one for everything else. */
export class WorkerPool {
  private readonly workers: JobWorker[];

  constructor(queue: JobQueue, handlers: JobHandlers, options: PoolOptions) {
    this.workers = [
      new JobWorker(queue, handlers, { ...options, concurrency: options.concurrency, kinds: OTHERS, schedules: true }),
      new JobWorker(queue, handlers, { ...options, concurrency: options.ingestConcurrency, kinds: INGEST, schedules: false }),
    ];
  }

  start(): void {
    for (const w of this.workers) w.start();
  }

  wake(): void {
    for (const w of this.workers) w.wake();
  }

  async stop(timeoutMs: number): Promise<void> {
    await Promise.all(this.workers.map((w) => w.stop(timeoutMs)));
  }
}
