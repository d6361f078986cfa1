import { afterCommit } from "../store/after-commit.js";
import type { Executor, Store } from "../store/db.js";
import { newId } from "../util/ids.js";
import { backoffDelay } from "../util/backoff.js";
import { JOB_CATALOG, JOB_KINDS, type JobKind, type JobPayload, isJobKind } from "./catalog.js";
import { JobStore, type JobChange, type JobRow, type QueueDepth } from "./job-store.js";

/** Jobs whose leases one statement extends (two variables each). */
const LEASE_EXTENSIONS_PER_STATEMENT = 200;

export interface ClaimedJob {
  readonly id: string;
  readonly kind: JobKind;
  readonly payload: unknown;
  readonly attempts: number;
  readonly maxAttempts: number;
  /** Fencing token: only the holder of the current lease may complete, fail or release. */
  readonly leaseOwner: string;
}

export interface EnqueueOptions {
  runAt?: number;
  /** At most one job with this key ever exists (recurring slots, idempotent enqueues). */
  dedupeKey?: string;
  /** Enqueue inside the caller's transaction, so the job exists iff the write does. */
  executor?: Executor;
}

export type FailOutcome = "retry" | "dead" | "lost";

/** Told the kind of jobs just enqueued (and committed) through this queue. Must not throw. */
export type EnqueueListener = (kind: JobKind) => void;

/**
 * The durable job queue on the relational store. Jobs are claimed with a lease; a job
 * whose lease expires (its worker died) is claimed again. Every state change after the
 * claim is fenced on (id, lease_owner), so a stale worker can never complete a job that
 * was handed to someone else: completion happens exactly once.
 * Workers of this process hear of every job enqueued through it once it is committed
 * (onEnqueued); other processes find it at their next poll.
 */
export class JobQueue {
  private readonly listeners = new Set<EnqueueListener>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    /** Intervals of recurring jobs that override the catalog's (configuration). */
    private readonly everyMs: Partial<Record<JobKind, number>> = {},
  ) {}

  /** How often a scheduling worker should enqueue recurring jobs: their shortest interval, at most a minute. */
  get scheduleCheckMs(): number {
    const intervals = JOB_KINDS.map((k) => this.intervalOf(k)).filter((e): e is number => e !== undefined);
    return Math.min(60_000, ...intervals);
  }

  /**
   * Calls `listener` after every enqueue through this queue, once the jobs are visible to a
   * claim: at once, or after the commit of the transaction they were enqueued in (never if it
   * rolls back). Returns the function that unsubscribes it.
   */
  onEnqueued(listener: EnqueueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private intervalOf(kind: JobKind): number | undefined {
    return this.everyMs[kind] ?? JOB_CATALOG[kind].everyMs;
  }

  async enqueue<K extends JobKind>(kind: K, payload: JobPayload<K>, options: EnqueueOptions = {}): Promise<string> {
    const { dedupeKey, ...rest } = options;
    const [id] = await this.enqueueMany(kind, [{ payload, ...(dedupeKey !== undefined ? { dedupeKey } : {}) }], rest);
    return id as string;
  }

  /** Enqueues several jobs of one kind in one statement; returns their ids in order. */
  async enqueueMany<K extends JobKind>(
    kind: K,
    jobs: ReadonlyArray<{ payload: JobPayload<K>; dedupeKey?: string }>,
    options: Omit<EnqueueOptions, "dedupeKey"> = {},
  ): Promise<string[]> {
    if (jobs.length === 0) return [];
    const spec = JOB_CATALOG[kind];
    const at = this.now();
    const rows = jobs.map((job) => ({
      id: newId(),
      kind,
      payload: JSON.stringify(job.payload),
      status: "queued" as const,
      attempts: 0,
      max_attempts: spec.maxAttempts,
      run_at: options.runAt ?? at,
      lease_owner: null,
      lease_expires_at: null,
      last_error: null,
      dedupe_key: job.dedupeKey ?? null,
      created_at: at,
      updated_at: at,
      completed_at: null,
    }));
    await this.jobs(options.executor).insertMany(rows);
    afterCommit(options.executor ?? this.store.db, () => {
      for (const listener of this.listeners) listener(kind);
    });
    return rows.map((r) => r.id);
  }

  /** Claims up to `limit` runnable jobs (due, or with an expired lease) for `leaseMs`. */
  async claim(workerId: string, limit: number, leaseMs: number, kinds?: readonly JobKind[]): Promise<ClaimedJob[]> {
    const at = this.now();
    const owner = `${workerId}:${newId()}`;
    const rows = await this.jobs().claim(owner, at, leaseMs, limit, kinds);
    const claimed: ClaimedJob[] = [];
    for (const row of rows) {
      const attempts = Number(row.attempts);
      if (!isJobKind(row.kind) || attempts > Number(row.max_attempts)) {
        // Unknown kinds (from a newer deployment) and jobs whose workers kept dying are dead-lettered.
        await this.markDead({ id: row.id, leaseOwner: owner }, isJobKind(row.kind) ? "lease expired too many times" : `unknown job kind ${row.kind}`);
        continue;
      }
      claimed.push({
        id: row.id,
        kind: row.kind,
        payload: JSON.parse(row.payload) as unknown,
        attempts,
        maxAttempts: Number(row.max_attempts),
        leaseOwner: owner,
      });
    }
    return claimed;
  }

  async extendLease(job: ClaimedJob, leaseMs: number): Promise<boolean> {
    return (await this.extendLeases([job], leaseMs)).has(job.id);
  }

  /**
   * Extends the leases still held among `jobs`, LEASE_EXTENSIONS_PER_STATEMENT to a statement;
   * returns the ids extended. A worker's heartbeat extends all its running jobs at once: one
   * statement (one transaction) each was a burst of hundreds of commits every heartbeat at the
   * job counts that make ingestion fastest with a fast embedder (INGEST_WORKERS 256-512).
   */
  async extendLeases(jobs: readonly ClaimedJob[], leaseMs: number): Promise<Set<string>> {
    const at = this.now();
    const extended = new Set<string>();
    for (let i = 0; i < jobs.length; i += LEASE_EXTENSIONS_PER_STATEMENT) {
      const piece = jobs.slice(i, i + LEASE_EXTENSIONS_PER_STATEMENT);
      for (const id of await this.fenced(piece, { lease_expires_at: at + leaseMs, updated_at: at })) extended.add(id);
    }
    return extended;
  }

  /** Marks the job completed; false when the lease was lost (someone else owns it now). */
  async complete(job: ClaimedJob, executor?: Executor): Promise<boolean> {
    return (await this.completeMany([job], executor)).has(job.id);
  }

  /** Completes the jobs whose lease is still held; returns the ids completed. */
  async completeMany(jobs: readonly ClaimedJob[], executor?: Executor): Promise<Set<string>> {
    const at = this.now();
    return this.fenced(jobs, { status: "completed", completed_at: at, updated_at: at, lease_owner: null, lease_expires_at: null }, executor);
  }

  async fail(job: ClaimedJob, error: string): Promise<FailOutcome> {
    if (job.attempts >= job.maxAttempts) {
      return (await this.markDead(job, error)) ? "dead" : "lost";
    }
    const spec = JOB_CATALOG[job.kind];
    const at = this.now();
    const retried = await this.fenced([job], {
      status: "queued",
      run_at: at + backoffDelay(job.attempts, spec.backoffMs, spec.maxBackoffMs),
      last_error: error.slice(0, 4000),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: at,
    });
    return retried.size > 0 ? "retry" : "lost";
  }

  /**
   * The store refused the job's work (unreachable, full, read-only): the job goes back to the
   * queue after its first backoff and the attempt is given back, since an outage says nothing of
   * the job. Its retries stop being dead-letterable only for this cause; a job whose workers die
   * still dead-letters through lease expiry.
   */
  async postpone(job: ClaimedJob, error: string): Promise<boolean> {
    const spec = JOB_CATALOG[job.kind];
    const at = this.now();
    const postponed = await this.fenced([job], {
      status: "queued",
      attempts: JobStore.attemptGivenBack,
      run_at: at + backoffDelay(1, spec.backoffMs, spec.maxBackoffMs),
      last_error: error.slice(0, 4000),
      lease_owner: null,
      lease_expires_at: null,
      updated_at: at,
    });
    return postponed.size > 0;
  }

  /** Gives a claimed job back untouched (shutdown): it does not count as an attempt. */
  async release(job: ClaimedJob): Promise<boolean> {
    const at = this.now();
    const released = await this.fenced([job], {
      status: "queued",
      attempts: JobStore.attemptGivenBack,
      run_at: at,
      lease_owner: null,
      lease_expires_at: null,
      updated_at: at,
    });
    return released.size > 0;
  }

  async get(id: string): Promise<JobRow | undefined> {
    return this.jobs().get(id);
  }

  /** The job holding this dedupe key, if any (reconcile looks a pipeline job up by it). */
  async findByDedupeKey(key: string): Promise<Pick<JobRow, "status" | "last_error"> | undefined> {
    return this.jobs().findByDedupeKey(key);
  }

  /** run_at of the oldest queued job already due (readiness). */
  async oldestDueRunAt(): Promise<number | undefined> {
    return this.jobs().oldestDueRunAt(this.now());
  }

  /** Unfinished jobs per kind, by the queue's clock (metrics at scrape time, readiness). */
  async depthByKind(): Promise<QueueDepth[]> {
    return this.jobs().depthByKind(this.now());
  }

  /** Enqueues this interval's run of every recurring job; the dedupe key makes it once per slot. */
  async scheduleRecurring(): Promise<void> {
    const at = this.now();
    for (const kind of JOB_KINDS) {
      const every = this.intervalOf(kind);
      if (every === undefined) continue;
      const slot = Math.floor(at / every);
      await this.enqueue(kind, {}, { dedupeKey: `schedule:${kind}:${slot}`, runAt: slot * every });
    }
  }

  /** Deletes finished jobs older than the horizon; dead jobs are kept for inspection. */
  async prune(olderThanMs: number): Promise<number> {
    return this.jobs().deleteCompletedBefore(this.now() - olderThanMs);
  }

  private async markDead(job: Pick<ClaimedJob, "id" | "leaseOwner">, error: string): Promise<boolean> {
    const at = this.now();
    const dead = await this.fenced([job], { status: "dead", last_error: error.slice(0, 4000), lease_owner: null, lease_expires_at: null, updated_at: at });
    return dead.size > 0;
  }

  /**
   * Every state change after the claim: applies `set` to those of the jobs still running under
   * the lease they were claimed with; returns their ids.
   */
  private async fenced(jobs: ReadonlyArray<Pick<ClaimedJob, "id" | "leaseOwner">>, set: JobChange, executor?: Executor): Promise<Set<string>> {
    return this.jobs(executor).updateLeased(jobs, set);
  }

  private jobs(executor?: Executor): JobStore {
    return new JobStore(executor ?? this.store.db, this.store.backend);
  }
}
