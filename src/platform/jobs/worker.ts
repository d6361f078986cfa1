import { Value } from "@sinclair/typebox/value";
import type { BackgroundGate } from "./background-gate.js";
import { JOB_CATALOG, type JobKind, type JobPayload } from "./catalog.js";
import { backoffDelay } from "../util/backoff.js";
import { Coalescer } from "../util/coalescer.js";
import type { ClaimedJob, JobQueue } from "./queue.js";
import { inSystemScope } from "../store/row-scope.js";
import { withLogContext } from "../log-context.js";
import { isStoreUnavailable } from "../store/errors.js";
import { yieldToEventLoop } from "../util/yield-to-event-loop.js";
import { afterCommit } from "../store/after-commit.js";
import type { Executor } from "../store/db.js";

export interface JobContext {
  readonly job: ClaimedJob;
  /** Aborted when the job times out or the worker shuts down; long handlers should check it. */
  readonly signal: AbortSignal;
  /**
   * The handler completes the job itself in its transaction `tx` (JobQueue.completeMany on it),
   * so that the completion commits with the job's work, not in a transaction of its own; once
   * `tx` commits, the worker does not complete the job again.
   */
  completedIn(tx: Executor): void;
}

export type JobHandler<K extends JobKind> = (payload: JobPayload<K>, ctx: JobContext) => Promise<void>;
export type JobHandlers = { readonly [K in JobKind]: JobHandler<K> };

export interface WorkerLogger {
  debug?(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface WorkerOptions {
  readonly workerId: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly logger: WorkerLogger;
  /** Only these job kinds (default: all). */
  readonly kinds?: readonly JobKind[];
  /** Whether this worker enqueues the recurring jobs (one worker per process does). */
  readonly schedules?: boolean;
  /** Runs this worker's jobs at background priority (see BackgroundGate). */
  readonly gate?: BackgroundGate;
}

interface Running {
  readonly job: ClaimedJob;
  readonly abort: AbortController;
  readonly done: Promise<void>;
}

class JobTimeout extends Error {}

/** Quick retries of recording a job's failure in a store that refused the first one: how many, and their backoff (base, cap). */
const FAIL_RECORD_RETRIES = 3;
const FAIL_RECORD_BACKOFF_MS = 200;
const FAIL_RECORD_BACKOFF_MAX_MS = 1_000;

/**
 * Claims jobs from the queue and runs their handlers with bounded concurrency, keeping
 * leases alive while a handler runs. stop() stops claiming, waits for running handlers,
 * and gives back (releases) whatever has not finished by the deadline.
 */
export class JobWorker {
  private readonly running = new Map<string, Running>();
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** A wake came while this worker was not idle (claiming): it claims again instead of resting. */
  private woken = false;
  private heartbeat: NodeJS.Timeout | null = null;
  /** When the loop last went round (claimed, or found nothing to claim), or started: readiness's heartbeat. */
  private lastRound: number | null = null;
  /** Jobs that finish together are marked completed in one statement. */
  private readonly completions: Coalescer<ClaimedJob, boolean>;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: JobHandlers,
    private readonly options: WorkerOptions,
  ) {
    this.completions = new Coalescer(async (jobs) => {
      const done = await queue.completeMany(jobs);
      return jobs.map((j) => done.has(j.id));
    });
    // A job enqueued in this process (once committed) is claimed now rather than at the next poll.
    this.unsubscribe = queue.onEnqueued((kind) => {
      if (!options.kinds || options.kinds.includes(kind)) this.wake();
    });
  }

  /** Claiming jobs now: started with a concurrency above 0 and not stopping. */
  get claiming(): boolean {
    return this.loop !== null && !this.stopping;
  }

  /** Resting until its next poll or a wake: its last claim found nothing it could take. */
  get resting(): boolean {
    return this.wakeUp !== null;
  }

  /** Epoch ms of the loop's last round; null before the first. */
  get lastRoundAt(): number | null {
    return this.lastRound;
  }

  /** Jobs running now. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Jobs run in system scope, whoever starts the worker: the queue is a platform table, a job
   * carries no organization, and its handler reads rows by ids that name their organization.
   * Everything the loop starts (claims, handlers, leases) inherits it; a request that wakes
   * the loop only resolves a promise the loop awaits, which keeps the loop's scope.
   */
  start(): void {
    if (this.loop || this.options.concurrency <= 0) return;
    this.lastRound = Date.now();
    inSystemScope(() => {
      this.heartbeat = setInterval(() => void this.extendLeases(), Math.max(100, Math.floor(this.options.leaseMs / 3)));
      this.loop = this.run();
    });
  }

  /** Poll now instead of at the next tick (the queue calls it when a job of this worker's kinds is enqueued). */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.unsubscribe();
    this.wake();
    await this.loop;
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.running.values()].map((r) => r.done)), deadline]);
    for (const r of this.running.values()) {
      r.abort.abort();
      await this.queue.release(r.job).catch((err: unknown) => {
        this.options.logger.warn({ jobId: r.job.id, kind: r.job.kind, err }, "releasing a job at shutdown failed; it is retried once its lease expires");
      });
    }
    if (this.heartbeat) clearInterval(this.heartbeat);
  }

  private async run(): Promise<void> {
    const schedules = this.options.schedules !== false;
    if (schedules) await this.queue.scheduleRecurring().catch((err: unknown) => this.options.logger.warn({ err }, "scheduling failed"));
    let lastSchedule = Date.now();
    while (!this.stopping) {
      // On SQLite every query resolves synchronously, so a busy lane would chain promise
      // continuations without end and starve timers and I/O (HTTP requests): yield each round.
      await yieldToEventLoop();
      this.lastRound = Date.now();
      // This round's claim sees every job enqueued so far: earlier wakes are answered by it.
      this.woken = false;
      const slots = this.options.concurrency - this.running.size;
      const free = this.options.gate ? this.options.gate.admit(slots, this.running.size) : slots;
      let claimed: ClaimedJob[] = [];
      if (free > 0) {
        try {
          claimed = await this.queue.claim(this.options.workerId, free, this.options.leaseMs, this.options.kinds);
        } catch (err) {
          this.options.logger.warn({ err }, "job claim failed");
        }
      }
      for (const job of claimed) this.launch(job);
      if (schedules && Date.now() - lastSchedule >= this.queue.scheduleCheckMs) {
        lastSchedule = Date.now();
        await this.queue.scheduleRecurring().catch((err: unknown) => this.options.logger.warn({ err }, "scheduling failed"));
      }
      if (claimed.length === 0 || free < slots || this.running.size >= this.options.concurrency) await this.idle();
    }
  }

  private idle(): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(finish, this.options.pollMs);
      this.wakeUp = finish;
    });
  }

  private launch(job: ClaimedJob): void {
    const abort = new AbortController();
    const started = performance.now();
    // Every line logged while the job runs names it, whichever logger writes it (log-context.ts).
    const done = withLogContext({ jobId: job.id, jobKind: job.kind }, () => this.execute(job, abort)).finally(() => {
      this.options.gate?.finished(performance.now() - started);
      this.running.delete(job.id);
      this.wake();
    });
    this.running.set(job.id, { job, abort, done });
  }

  private async execute(job: ClaimedJob, abort: AbortController): Promise<void> {
    await yieldToEventLoop();
    const spec = JOB_CATALOG[job.kind];
    const { logger } = this.options;
    if (!Value.Check(spec.payload, job.payload)) {
      // A malformed payload will never succeed: dead-letter it without burning retries.
      await this.queue.fail({ ...job, attempts: job.maxAttempts }, "payload does not match the job schema");
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    let completedByHandler = false;
    const ctx: JobContext = {
      job,
      signal: abort.signal,
      completedIn: (tx) => afterCommit(tx, () => (completedByHandler = true)),
    };
    try {
      const handler = this.handlers[job.kind] as JobHandler<JobKind>;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          abort.abort();
          reject(new JobTimeout(`timed out after ${spec.timeoutMs} ms`));
        }, spec.timeoutMs);
        // The job's own work keeps the process alive; its deadline must not.
        timer.unref();
      });
      await Promise.race([handler(job.payload, ctx), timeout]);
      if (completedByHandler || (await this.completions.submit(job))) logger.debug?.({ attempts: job.attempts }, "job completed");
      else logger.warn({ jobId: job.id, kind: job.kind }, "job lease lost before completion");
    } catch (err) {
      if (this.stopping && abort.signal.aborted) return; // released by stop()
      const message = err instanceof Error ? err.message : String(err);
      // An outage of the store is no fault of the job: it waits, without spending an attempt.
      const outcome = isStoreUnavailable(err)
        ? await this.recordFailure(job, async () => ((await this.queue.postpone(job, message)) ? "postponed" : "lost"))
        : await this.recordFailure(job, () => this.queue.fail(job, message));
      const log = outcome === "dead" ? logger.error.bind(logger) : logger.warn.bind(logger);
      log({ jobId: job.id, kind: job.kind, attempts: job.attempts, outcome, err: message }, "job failed");
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Records a failed attempt. When the store cannot take that write either (disk full, failover),
   * a few quick retries give the job back promptly rather than after its lease runs out.
   */
  private async recordFailure<T extends string>(job: ClaimedJob, record: () => Promise<T>): Promise<T | "lost"> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await record();
      } catch (err) {
        if (attempt >= FAIL_RECORD_RETRIES) {
          this.options.logger.warn({ jobId: job.id, kind: job.kind, err }, "recording a job failure failed; the job is retried once its lease expires");
          return "lost";
        }
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt + 1, FAIL_RECORD_BACKOFF_MS, FAIL_RECORD_BACKOFF_MAX_MS)));
      }
    }
  }

  private async extendLeases(): Promise<void> {
    const jobs = [...this.running.values()].map((r) => r.job);
    if (jobs.length === 0) return;
    await this.queue.extendLeases(jobs, this.options.leaseMs).catch((err: unknown) => {
      this.options.logger.warn({ jobs: jobs.length, err }, "extending the running jobs' leases failed; the next heartbeat tries again");
    });
  }
}
