import { sql, type RawBuilder, type UpdateObject } from "kysely";
import type { Backend, Executor } from "../store/db.js";
import type { Schema } from "../store/schema.js";
import { isExpression, statementTemplate } from "../store/statement-templates.js";

export type JobStatus = "queued" | "running" | "completed" | "dead";

/** A row of `jobs`: a platform table, not a tenant one (a payload names the rows it works on). */
export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export type JobRow = JobsTable;

/** The fields of a job row a state change may set. */
export type JobChange = UpdateObject<Schema, "jobs">;

/** Unfinished jobs of one kind (metrics, readiness). */
export interface QueueDepth {
  readonly kind: string;
  readonly due: number;
  readonly delayed: number;
  readonly running: number;
  /** run_at of the oldest due job; null when none is due. */
  readonly oldestDueRunAt: number | null;
}

/** A job held under a lease: the fencing pair every state change after the claim checks. */
export interface LeasedJob {
  readonly id: string;
  readonly leaseOwner: string;
}

/**
 * The claim: leases up to `limit` runnable jobs of `kinds` (all kinds when none are named), the
 * longest due first. Each kind's due jobs are read in `run_at` order through the (status, kind,
 * run_at) index (migration 0019) and stop at `limit`, so a claim reads at most `limit` rows per
 * kind whatever the backlog. One OR over both states and every kind, sorted as a whole, made SQLite
 * sort every due job to take the first few: 1.0 ms a claim at 4,000 queued jobs and 21 ms at
 * 100,000, on the request thread, for every claim of every lane.
 */
export function claimStatement(backend: Backend, owner: string, at: number, leaseMs: number, limit: number, kinds?: readonly string[]) {
  const lock = backend === "postgres" ? sql`FOR UPDATE SKIP LOCKED` : sql``;
  // Each arm is a subquery of its own: PostgreSQL locks rows only in a plain SELECT, never in a UNION.
  const arm = (where: RawBuilder<unknown>) =>
    sql`SELECT id, run_at FROM (SELECT id, run_at FROM jobs WHERE ${where} ORDER BY run_at LIMIT ${limit} ${lock}) AS arm`;
  // Per kind: the due jobs, and those whose lease ran out (their workers died; few, the index's
  // `running` range), each in run_at order, so the oldest are taken first as before.
  const armsOf = (kind: string | null) => {
    const ofKind = kind === null ? sql`` : sql`AND kind = ${kind}`;
    return [arm(sql`status = 'queued' ${ofKind} AND run_at <= ${at}`), arm(sql`status = 'running' ${ofKind} AND lease_expires_at < ${at}`)];
  };
  const arms = kinds && kinds.length > 0 ? [...new Set(kinds)].flatMap(armsOf) : armsOf(null);
  return sql<JobRow>`
    UPDATE jobs SET status = 'running', lease_owner = ${owner}, lease_expires_at = ${at + leaseMs},
      attempts = attempts + 1, updated_at = ${at}
    WHERE id IN (SELECT id FROM (${sql.join(arms, sql` UNION ALL `)}) AS runnable ORDER BY run_at LIMIT ${limit})
    RETURNING *`;
}

/** Rows per multi-row insert of jobs (see insertMany). */
const JOB_ROWS_PER_STATEMENT = 500;

/** Jobs grouped by the owner of their lease, in first-seen order (one group as a rule: one worker's jobs). */
interface OwnerGroup {
  readonly owner: string;
  readonly ids: string[];
}

function byOwner(jobs: readonly LeasedJob[]): OwnerGroup[] {
  const groups = new Map<string, string[]>();
  for (const j of jobs) {
    const ids = groups.get(j.leaseOwner);
    if (ids) ids.push(j.id);
    else groups.set(j.leaseOwner, [j.id]);
  }
  return [...groups].map(([owner, ids]) => ({ owner, ids }));
}

/**
 * The statement of JobStore.updateLeased: `set` on those of the jobs still running under their
 * lease. One `lease_owner = ? AND id IN (...)` per owner, where a condition per job (an `OR` of 64
 * `id = ? AND lease_owner = ?`) made SQLite look each one up on its own.
 */
function leasedUpdate(db: Executor, groups: readonly OwnerGroup[], set: JobChange) {
  return db
    .updateTable("jobs")
    .set(set)
    .where((eb) => eb.or(groups.map((g) => eb.and([eb("lease_owner", "=", g.owner), eb("id", "in", g.ids)]))))
    .where("status", "=", "running")
    .returning("id");
}

/** leasedUpdate compiled once per shape: completions and lease extensions run for every group of jobs. */
const leasedUpdates = statementTemplate(
  (v: { groups: readonly OwnerGroup[]; set: JobChange }) => `${v.groups.map((g) => g.ids.length).join("/")}:${Object.keys(v.set).join()}`,
  (db, v) => leasedUpdate(db, v.groups, v.set),
);

/** The multi-row insert of JobStore.insertMany, compiled once per row count. */
const jobInserts = statementTemplate(
  (rows: readonly JobRow[]) => String(rows.length),
  (db, rows) =>
    db
      .insertInto("jobs")
      .values(rows)
      .onConflict((oc) => oc.column("dedupe_key").where("dedupe_key", "is not", null).doNothing()),
);

/**
 * The SQL of the job queue (queue.ts keeps the rules: leases, retries, dead-lettering). The jobs
 * of every organization share this table on purpose: workers claim whatever is due.
 */
export class JobStore {
  constructor(
    private readonly db: Executor,
    private readonly backend: Backend,
  ) {}

  /**
   * Inserts the jobs; one whose dedupe key already exists is skipped. 500 rows per statement: a
   * 5,000-item ingest call once bound 60,000 variables in one, past SQLite's limit of 32,766
   * (PostgreSQL's is 65,535).
   */
  async insertMany(rows: readonly JobRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += JOB_ROWS_PER_STATEMENT) await jobInserts.run(this.db, rows.slice(i, i + JOB_ROWS_PER_STATEMENT));
  }

  /** Leases up to `limit` runnable jobs (due, or with an expired lease) to `owner`, counting an attempt. */
  async claim(owner: string, at: number, leaseMs: number, limit: number, kinds?: readonly string[]): Promise<JobRow[]> {
    const result = await claimStatement(this.backend, owner, at, leaseMs, limit, kinds).execute(this.db);
    return result.rows;
  }

  /** Applies `set` to those of the jobs still running under the lease they were claimed with; returns their ids. */
  async updateLeased(jobs: readonly LeasedJob[], set: JobChange): Promise<Set<string>> {
    if (jobs.length === 0) return new Set();
    // A change computed in SQL (an attempt given back) has no template: those are one job at a time.
    const rows = Object.values(set).some(isExpression)
      ? await leasedUpdate(this.db, byOwner(jobs), set).execute()
      : await leasedUpdates.run(this.db, { groups: byOwner(jobs), set });
    return new Set(rows.map((r) => r.id));
  }

  /** A release gives the attempt back: the SQL expression for it. */
  static readonly attemptGivenBack = sql<number>`attempts - 1`;

  async get(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The job holding this dedupe key (one per item generation for pipeline jobs). */
  async findByDedupeKey(key: string): Promise<Pick<JobRow, "status" | "last_error"> | undefined> {
    return this.db.selectFrom("jobs").select(["status", "last_error"]).where("dedupe_key", "=", key).executeTakeFirst();
  }

  /** run_at of the oldest queued job due by `at` (readiness: is anyone draining the queue?). */
  async oldestDueRunAt(at: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("jobs")
      .select("run_at")
      .where("status", "=", "queued")
      .where("run_at", "<=", at)
      .orderBy("run_at")
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.run_at);
  }

  /**
   * Per kind: jobs due and waiting, delayed (retries and schedules not yet due), running, and the
   * run_at of the oldest due one. Reads only unfinished jobs, through the (status, run_at) index.
   */
  async depthByKind(at: number): Promise<QueueDepth[]> {
    const result = await sql<{ kind: string; due: number | string; delayed: number | string; running: number | string; oldest_due: number | string | null }>`
      SELECT kind,
        SUM(CASE WHEN status = 'queued' AND run_at <= ${at} THEN 1 ELSE 0 END) AS due,
        SUM(CASE WHEN status = 'queued' AND run_at > ${at} THEN 1 ELSE 0 END) AS delayed,
        SUM(CASE WHEN status = 'running' THEN 1 ELSE 0 END) AS running,
        MIN(CASE WHEN status = 'queued' AND run_at <= ${at} THEN run_at END) AS oldest_due
      FROM jobs WHERE status IN ('queued', 'running') GROUP BY kind`.execute(this.db);
    return result.rows.map((r) => ({
      kind: r.kind,
      due: Number(r.due),
      delayed: Number(r.delayed),
      running: Number(r.running),
      oldestDueRunAt: r.oldest_due === null ? null : Number(r.oldest_due),
    }));
  }

  /** Deletes completed jobs finished before `before`; returns how many. */
  async deleteCompletedBefore(before: number): Promise<number> {
    const res = await this.db.deleteFrom("jobs").where("status", "=", "completed").where("completed_at", "<", before).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
