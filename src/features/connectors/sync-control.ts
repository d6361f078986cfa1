import { AppError } from "../../platform/errors/app-error.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Store } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { newId } from "../../platform/util/ids.js";
import { connectorNotFound } from "./service.js";
import { ConnectorStore, orgOf, type ConnectorRow } from "./store.js";

/** A scheduled cycle runs the id-only deletion reconciliation at most this often; on-demand syncs always do. */
const RECONCILE_EVERY_MS = 24 * 3_600_000;
const SCHEDULE_BATCH = 100;

const workflowIdOf = (connectorId: string): string => `connector-sync-${connectorId}`;

/**
 * Starting runs: the on-demand sync (409 while one is queued or running, paused or waiting for
 * credentials), pause and resume, and the scheduler pass that every process may run. A run is
 * claimed with a compare-and-set on the connector row and its job enqueued in the same
 * transaction, so a connector has at most one run and a claimed run always has its job.
 */
export class SyncControl {
  constructor(
    private readonly store: Store,
    private readonly queue: JobQueue,
    private readonly now: () => number = Date.now,
  ) {}

  private async find(org: OrgTenancy, id: string): Promise<ConnectorRow> {
    const row = await new ConnectorStore(this.store.db).get(org, id);
    if (!row) throw connectorNotFound(id);
    return row;
  }

  /** Claims a run and enqueues its job; false when the connector was not free. */
  async start(org: OrgTenancy, connectorId: string, reconcile: boolean, takeOrphaned: boolean, runAt?: number): Promise<string | null> {
    const runId = newId();
    const claimed = await this.store.transaction(async (tx) => {
      if (!(await new ConnectorStore(tx).claimRun(org, connectorId, runId, reconcile, this.now(), takeOrphaned))) return false;
      await this.queue.enqueue(
        "connector.sync",
        { connectorId, runId },
        { executor: tx, dedupeKey: `connector-sync:${runId}:0`, ...(runAt !== undefined ? { runAt } : {}) },
      );
      return true;
    });
    if (!claimed) return null;
    return runId;
  }

  async requestSync(org: OrgTenancy, id: string): Promise<{ run_id: string; workflow_id: string }> {
    const row = await this.find(org, id);
    if (row.paused === 1) throw new AppError("CONNECTOR_CONFLICT", "the connector is paused; resume it first");
    if (row.needs_reauth === 1)
      throw new AppError("CONNECTOR_CONFLICT", `the connector needs new credentials (${row.needs_reauth_reason}); PATCH credentials first`);
    const runId = await this.start(org, row.id, true, false);
    if (runId === null) throw new AppError("CONNECTOR_CONFLICT", "a sync of this connector is already queued or running");
    return { run_id: runId, workflow_id: workflowIdOf(row.id) };
  }

  async pause(org: OrgTenancy, id: string): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    if (row.paused === 1) throw new AppError("CONNECTOR_CONFLICT", "the connector is already paused");
    const at = this.now();
    // A run in progress stops at its next page boundary, keeping its checkpoint.
    await new ConnectorStore(this.store.db).update(org, row.id, { paused: 1, paused_at: at, updated_at: at });
    return { connector_id: row.id, paused: true, paused_at: new Date(at).toISOString() };
  }

  async resume(org: OrgTenancy, id: string): Promise<Record<string, unknown>> {
    const row = await this.find(org, id);
    if (row.paused !== 1) throw new AppError("CONNECTOR_CONFLICT", "the connector is not paused");
    const at = this.now();
    // Resuming makes the connector due at once.
    await new ConnectorStore(this.store.db).update(org, row.id, { paused: 0, paused_at: null, next_sync_at: at, updated_at: at });
    return { connector_id: row.id, paused: false };
  }

  /**
   * The scheduler pass: starts every due connector; returns how many started. A run interrupted
   * by a crash needs nothing from here: its job comes back when its lease expires (JOB_LEASE_MS)
   * and resumes from the checkpoints. Only a run whose job is gone (dead-lettered) is replaced
   * by a new run, which also continues from the resources' checkpoints.
   */
  async scheduleDue(now: number = this.now()): Promise<number> {
    // Every organization's connectors: the scheduler is one system-wide pass; each start is scoped by its row's organization.
    const due = await new ConnectorStore(this.store.db).dueAcrossOrganizations(now, SCHEDULE_BATCH);
    let started = 0;
    for (const row of due) {
      const reconcile = row.last_reconciled_at === null || now - row.last_reconciled_at >= RECONCILE_EVERY_MS;
      if ((await this.start(orgOf(row), row.id, reconcile, true)) !== null) started++;
    }
    return started;
  }
}
