import { AppError } from "../errors/app-error.js";
import type { JobQueue } from "../jobs/queue.js";
import type { Store } from "../store/db.js";
import { newId } from "../util/ids.js";
import { connectorNotFound } from "./service.js";
import { ConnectorStore, type ConnectorRow } from "./store.js";

/** A scheduled cycle runs the id-only deletion reconciliation at most this often; on-demand syncs always do. */
export const RECONCILE_EVERY_MS = 24 * 3_600_000;
/** A run with no progress for this long lost its job (the sync job's timeout plus its lease). */
export const STALE_RUN_MS = 35 * 60_000;
const SCHEDULE_BATCH = 100;

export const workflowIdOf = (connectorId: string): string => `connector-sync-${connectorId}`;

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
    private readonly wake: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  private async find(orgId: string, id: string): Promise<ConnectorRow> {
    const row = await new ConnectorStore(this.store.db).get(orgId, id);
    if (!row) throw connectorNotFound(id);
    return row;
  }

  /** Claims a run and enqueues its job; false when the connector was not free. */
  async start(connectorId: string, reconcile: boolean, staleBefore: number | null, runAt?: number): Promise<string | null> {
    const runId = newId();
    const claimed = await this.store.transaction(async (tx) => {
      if (!(await new ConnectorStore(tx).claimRun(connectorId, runId, reconcile, this.now(), staleBefore))) return false;
      await this.queue.enqueue("connector.sync", { connectorId, runId }, { executor: tx, dedupeKey: `connector-sync:${runId}:0`, ...(runAt !== undefined ? { runAt } : {}) });
      return true;
    });
    if (!claimed) return null;
    this.wake();
    return runId;
  }

  async requestSync(orgId: string, id: string): Promise<{ run_id: string; workflow_id: string }> {
    const row = await this.find(orgId, id);
    if (row.paused === 1) throw new AppError("CONNECTOR_CONFLICT", "the connector is paused; resume it first");
    if (row.needs_reauth === 1) throw new AppError("CONNECTOR_CONFLICT", `the connector needs new credentials (${row.needs_reauth_reason}); PATCH credentials first`);
    const runId = await this.start(row.id, true, null);
    if (runId === null) throw new AppError("CONNECTOR_CONFLICT", "a sync of this connector is already queued or running");
    return { run_id: runId, workflow_id: workflowIdOf(row.id) };
  }

  async pause(orgId: string, id: string): Promise<Record<string, unknown>> {
    const row = await this.find(orgId, id);
    if (row.paused === 1) throw new AppError("CONNECTOR_CONFLICT", "the connector is already paused");
    const at = this.now();
    // A run in progress stops at its next page boundary, keeping its checkpoint.
    await new ConnectorStore(this.store.db).update(row.id, { paused: 1, paused_at: at, updated_at: at });
    return { connector_id: row.id, paused: true, paused_at: new Date(at).toISOString() };
  }

  async resume(orgId: string, id: string): Promise<Record<string, unknown>> {
    const row = await this.find(orgId, id);
    if (row.paused !== 1) throw new AppError("CONNECTOR_CONFLICT", "the connector is not paused");
    const at = this.now();
    // Resuming makes the connector due at once.
    await new ConnectorStore(this.store.db).update(row.id, { paused: 0, paused_at: null, next_sync_at: at, updated_at: at });
    return { connector_id: row.id, paused: false };
  }

  /** The scheduler pass: starts every due connector (and restarts silent runs); returns how many started. */
  async scheduleDue(now: number = this.now()): Promise<number> {
    const due = await new ConnectorStore(this.store.db).due(now, now - STALE_RUN_MS, SCHEDULE_BATCH);
    let started = 0;
    for (const row of due) {
      const reconcile = row.last_reconciled_at === null || now - row.last_reconciled_at >= RECONCILE_EVERY_MS;
      if ((await this.start(row.id, reconcile, now - STALE_RUN_MS)) !== null) started++;
    }
    return started;
  }
}
