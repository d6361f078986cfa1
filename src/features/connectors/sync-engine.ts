import { appDrafts } from "../ingestion/ingest-input.js";
import type { IngestService } from "../ingestion/service.js";
import type { ContextEditService } from "../items/edit-service.js";
import { backoffDelay } from "../../platform/util/backoff.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Executor, Store } from "../../platform/store/db.js";
import type { CredentialVault } from "./credentials.js";
import { objectItem, objectItemId, type ObjectItem } from "./object-items.js";
import type { ChangedFilter, ConnectorProvider, Credentials, PullPage, ResourceRef, SyncWindow } from "./provider.js";
import { ProviderError, SYNC_ERROR_CODES, type SyncErrorCode } from "./provider-error.js";
import type { ProviderRegistry } from "./registry.js";
import { ConnectorStore, orgOf, type ConnectorRow, type ResourceRow } from "./store.js";

/** The in-flight state of one resource, stored beside its committed cursor. */
interface Checkpoint {
  window: SyncWindow;
  /** The provider's page state for the next page; null before the first page. */
  state: unknown;
  pages: number;
  rows: number;
}

const DAY_MS = 86_400_000;
const FAILURE_BACKOFF_BASE_MS = 60_000;

class RunStopped extends Error {}

/** How one attempt of a sync run ended: done, failed for good, paused or cancelled, waiting for new credentials, or resumed later (rate limit). */
export type SyncOutcome = "completed" | "failed" | "stopped" | "needs_reauth" | "rate_limited";

/**
 * Runs one connector sync (the `connector.sync` job). Per resource: fix the window from the
 * committed cursor (or the lookback), then page through it; each page's changed items, the
 * ledger rows and the next checkpoint commit in one transaction, and the last page also sets
 * provider_cursor := window end and clears the checkpoint (also when the pull was empty). An
 * interrupted run resumes from the checkpoint. Then, when the run asks for it, the id-only
 * reconciliation removes items whose objects no longer exist at the provider.
 *
 * Provider outcomes: rate limits reschedule this run's job at the reset time (no sleeping);
 * refused credentials set needs_reauth and stop scheduling; other failures go to last_error and
 * the next attempt waits with exponential backoff. The checkpoint survives all of them.
 */
export class SyncEngine {
  constructor(
    private readonly store: Store,
    private readonly providers: ProviderRegistry,
    private readonly vault: CredentialVault,
    private readonly ingest: IngestService,
    private readonly edit: ContextEditService,
    private readonly queue: JobQueue,
    /** Told how each run attempt ended, by provider (metrics); "error" is a store failure the job retries. */
    private readonly onResult: (provider: string, outcome: SyncOutcome | "error") => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async run(connectorId: string, runId: string, signal: AbortSignal, attempt: number): Promise<void> {
    // The job names only the connector; its row names the organization every later query is scoped by.
    const row = await new ConnectorStore(this.store.db).findForJobAcrossOrganizations(connectorId);
    if (!row || row.run_id !== runId) return; // a stale job: the run ended or was replaced
    let outcome: SyncOutcome;
    try {
      outcome = await this.runAttempt(row, runId, signal, attempt);
    } catch (err) {
      this.onResult(row.provider, "error");
      throw err;
    }
    this.onResult(row.provider, outcome);
  }

  private async runAttempt(row: ConnectorRow, runId: string, signal: AbortSignal, attempt: number): Promise<SyncOutcome> {
    const s = new ConnectorStore(this.store.db);
    const org = orgOf(row);
    const provider = this.providers.get(row.provider);
    const opened = this.vault.open(row.credentials);
    if (!provider || !opened.ok) {
      await this.finishFailed(
        row,
        runId,
        provider ? "CREDENTIALS_UNREADABLE" : "PROVIDER_UNSUPPORTED",
        provider ? `credentials cannot be opened: ${opened.ok ? "" : opened.reason}` : `provider ${row.provider} is not available`,
      );
      return "failed";
    }
    const at = this.now();
    await s.update(
      org,
      row.id,
      { sync_state: "running", last_attempted_sync_at: row.sync_state === "queued" ? at : row.last_attempted_sync_at, sync_heartbeat_at: at, updated_at: at },
      { runId },
    );
    try {
      for (const resource of await s.listResources(org, row.id)) {
        try {
          await this.syncResource(row, runId, provider, opened.credentials, resource, signal);
        } catch (err) {
          // A resource gone or hidden at the provider blocks only itself; its cursor stays.
          if (!(err instanceof ProviderError && err.kind === "not_found")) throw err;
          await s.updateResource(org, row.id, resource.resource_id, { status: "failed", message: err.message, checked_at: this.now(), updated_at: this.now() });
        }
      }
      let reconciled = false;
      if (row.run_reconcile === 1) {
        const healthy = (await s.listResources(org, row.id)).filter((r) => r.status !== "failed");
        for (const resource of healthy) await this.reconcile(row, runId, provider, opened.credentials, resource, signal);
        reconciled = true;
      }
      await this.finishOk(row, runId, reconciled);
      return "completed";
    } catch (err) {
      if (err instanceof RunStopped) {
        await s.update(org, row.id, { sync_state: "idle", run_id: null, updated_at: this.now() }, { runId });
        return "stopped";
      }
      if (!(err instanceof ProviderError)) throw err; // store trouble: the job retries and resumes
      return this.onProviderError(row, runId, err, attempt);
    }
  }

  private async alive(row: ConnectorRow, runId: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new RunStopped("aborted");
    const current = await new ConnectorStore(this.store.db).get(orgOf(row), row.id);
    if (!current || current.run_id !== runId || current.paused === 1) throw new RunStopped("stopped");
  }

  private async syncResource(
    row: ConnectorRow,
    runId: string,
    provider: ConnectorProvider,
    credentials: Credentials,
    r: ResourceRow,
    signal: AbortSignal,
  ): Promise<void> {
    const ref = refOf(r);
    const acl = await provider.resourceAcl(credentials, ref, signal);
    const lookbackDays = (JSON.parse(r.filters ?? "{}") as { lookback_days?: number }).lookback_days ?? 30;
    let cp: Checkpoint = r.checkpoint
      ? (JSON.parse(r.checkpoint) as Checkpoint)
      : { window: provider.openWindow(r.provider_cursor, this.now() - lookbackDays * DAY_MS, this.now()), state: null, pages: 0, rows: 0 };
    const instructions = r.custom_instructions ?? row.custom_instructions;
    const pull = (state: unknown): Promise<PullPage> => {
      const p = provider.pull({ credentials, resource: ref, window: cp.window, state, signal });
      p.catch(() => undefined); // awaited below; a page dropped after a failed commit must not go unhandled
      return p;
    };
    let pending = pull(cp.state);
    for (;;) {
      await this.alive(row, runId, signal);
      const page = await pending;
      const items = dedupe(page.objects.map((o) => objectItem(row, r, o, acl)));
      const done = page.next === null || page.next === undefined;
      const next: Checkpoint = { window: cp.window, state: done ? null : page.next, pages: cp.pages + 1, rows: cp.rows + items.length };
      // The next page is fetched while this one commits; it counts only once this commit is done.
      if (!done) pending = pull(next.state);
      await this.commitPage(row, runId, r, items, instructions, async (tx) => {
        const at = this.now();
        await new ConnectorStore(tx).updateResource(
          orgOf(row),
          r.connector_id,
          r.resource_id,
          done
            ? { provider_cursor: cp.window.end, checkpoint: null, last_row_count: next.rows, status: "active", message: "", checked_at: at, updated_at: at }
            : { checkpoint: JSON.stringify(next), updated_at: at },
        );
      });
      if (done) return;
      cp = next;
    }
  }

  /** Writes a page: changed items through the ingest service, with ledger and checkpoint in its transaction. */
  private async commitPage(
    row: ConnectorRow,
    runId: string,
    r: ResourceRow,
    items: readonly ObjectItem[],
    instructions: string,
    checkpoint: (tx: Executor) => Promise<void>,
  ): Promise<void> {
    const known = await new ConnectorStore(this.store.db).hashes(
      orgOf(row),
      row.id,
      items.map((i) => i.sourceId),
    );
    const changed = items.filter((i) => known.get(i.sourceId) !== i.hash);
    const drafts = appDrafts(
      changed.map((i) => i.raw),
      null,
    );
    const accepted = new Set<string>();
    for (const d of drafts) {
      if (!d.ok) continue;
      d.draft.connectorId = row.id;
      d.draft.customInstructions = instructions === "" ? null : instructions;
      accepted.add(d.draft.sourceId);
    }
    const ledger = changed.filter((i) => accepted.has(i.sourceId));
    const afterWrite = async (tx: Executor): Promise<void> => {
      const s = new ConnectorStore(tx);
      const at = this.now();
      await s.upsertObjects(
        ledger.map((i) => ({
          connector_id: row.id,
          org_id: row.org_id,
          database_id: row.database_id,
          resource_id: r.resource_id,
          source_id: i.sourceId,
          collection: i.collection,
          kind: i.kind,
          native_id: i.nativeId,
          content_hash: i.hash,
          updated_at: at,
        })),
      );
      await s.addDispatched(orgOf(row), row.id, runId, ledger.length, at);
      await checkpoint(tx);
    };
    if (ledger.length === 0) {
      await this.store.transaction(afterWrite);
      return;
    }
    await this.ingest.ingest({
      orgId: row.org_id,
      database: row.database_name,
      collection: row.collection,
      corpus: "knowledge",
      upsert: true,
      // Objects carry deterministic ids; content-hash deduplication is for id-less file uploads.
      allowDuplicates: true,
      drafts: drafts.filter((d) => d.ok),
      metadata: {},
      additionalMetadata: {},
      afterWrite,
    });
  }

  /**
   * Removes the items of objects gone at the provider: the ledger minus the live ids (and minus
   * the stored children of objects the provider did not re-read). Objects the listing re-read
   * because they changed (a thread with a new reply) are upserted on the way.
   */
  /**
   * The reconciliation pass refreshes what is stored (a changed object, a new reply in a stored
   * thread). Which objects come in at all is the pull window's decision (lookback_days, then the
   * cursor), so an object the listing re-read that is neither stored nor in a stored thread (an
   * old message outside the lookback) stays out.
   */
  private async storedOrInStoredThread(row: ConnectorRow, items: ObjectItem[]): Promise<ObjectItem[]> {
    if (items.length === 0) return items;
    const ids = new Set(items.flatMap((i) => (i.parentId === null ? [i.sourceId] : [i.sourceId, i.parentId])));
    const stored = await new ConnectorStore(this.store.db).hashes(orgOf(row), row.id, [...ids]);
    return items.filter((i) => stored.has(i.sourceId) || (i.parentId !== null && stored.has(i.parentId)));
  }

  private async reconcile(
    row: ConnectorRow,
    runId: string,
    provider: ConnectorProvider,
    credentials: Credentials,
    r: ResourceRow,
    signal: AbortSignal,
  ): Promise<void> {
    const ref = refOf(r);
    const acl = await provider.resourceAcl(credentials, ref, signal);
    const instructions = r.custom_instructions ?? row.custom_instructions;
    const s = new ConnectorStore(this.store.db);
    const changed: ChangedFilter = async (objects) => {
      const items = objects.map((o) => objectItem(row, r, o, acl));
      const known = await s.hashes(
        orgOf(row),
        row.id,
        items.map((i) => i.sourceId),
      );
      return objects.filter((_, k) => known.get(items[k]!.sourceId) !== items[k]!.hash);
    };
    const live = new Set<string>();
    const kept = new Set<string>();
    let state: unknown = null;
    do {
      await this.alive(row, runId, signal);
      const page = await provider.listLiveIds(credentials, ref, state, signal, changed);
      for (const id of page.ids) live.add(objectItemId(row, id.kind, id.nativeId));
      for (const id of page.keepChildrenOf ?? []) kept.add(objectItemId(row, id.kind, id.nativeId));
      const reread = await this.storedOrInStoredThread(row, dedupe((page.objects ?? []).map((o) => objectItem(row, r, o, acl))));
      for (const i of reread) live.add(i.sourceId);
      if (reread.length > 0) await this.commitPage(row, runId, r, reread, instructions, async () => undefined);
      state = page.next ?? null;
    } while (state !== null);
    for (const id of await s.childrenOf(row, r.collection_override ?? row.collection, [...kept])) live.add(id);
    const gone = (await s.ledgerOf(orgOf(row), row.id, r.resource_id)).filter((o) => !live.has(o.source_id));
    const byCollection = new Map<string, string[]>();
    for (const o of gone) byCollection.set(o.collection, [...(byCollection.get(o.collection) ?? []), o.source_id]);
    for (const [collection, ids] of byCollection) {
      await this.edit.delete({ orgId: row.org_id, database: row.database_name, collection, corpus: "knowledge" }, ids);
      await s.deleteObjects(orgOf(row), row.id, ids);
    }
  }

  private async finishOk(row: ConnectorRow, runId: string, reconciled: boolean): Promise<void> {
    const at = this.now();
    const current = await new ConnectorStore(this.store.db).get(orgOf(row), row.id);
    await new ConnectorStore(this.store.db).update(
      orgOf(row),
      row.id,
      {
        sync_state: "idle",
        run_id: null,
        last_successful_sync_at: at,
        last_error: "",
        last_error_code: "",
        consecutive_failures: 0,
        sync_cycles_completed: (current?.sync_cycles_completed ?? row.sync_cycles_completed) + 1,
        next_sync_at: (current?.last_attempted_sync_at ?? at) + (current?.sync_interval_seconds ?? row.sync_interval_seconds) * 1000,
        ...(reconciled ? { last_reconciled_at: at } : {}),
        updated_at: at,
      },
      { runId },
    );
  }

  private async finishFailed(row: ConnectorRow, runId: string, code: SyncErrorCode, message: string): Promise<void> {
    const at = this.now();
    const failures = row.consecutive_failures + 1;
    const delay = Math.min(row.sync_interval_seconds * 1000, backoffDelay(failures, FAILURE_BACKOFF_BASE_MS, 6 * 3_600_000));
    await new ConnectorStore(this.store.db).update(
      orgOf(row),
      row.id,
      {
        sync_state: "idle",
        run_id: null,
        last_error: message.slice(0, 2000),
        last_error_code: code,
        consecutive_failures: failures,
        next_sync_at: at + delay,
        updated_at: at,
      },
      { runId },
    );
  }

  private async onProviderError(row: ConnectorRow, runId: string, err: ProviderError, attempt: number): Promise<SyncOutcome> {
    const at = this.now();
    const s = new ConnectorStore(this.store.db);
    switch (err.kind) {
      case "auth":
        // Cursors and checkpoints stay; the scheduler skips the connector until new credentials arrive.
        await s.update(
          orgOf(row),
          row.id,
          { sync_state: "idle", run_id: null, needs_reauth: 1, needs_reauth_at: at, needs_reauth_reason: err.message, updated_at: at },
          { runId },
        );
        return "needs_reauth";
      case "rate_limited": {
        const resumeAt = Math.max(at, err.retryAtMs ?? at + 60_000);
        // The run continues from its checkpoint in a new job at the reset time (enqueued before
        // this job completes, so the run always has a live job).
        await this.store.transaction(async (tx) => {
          if (!(await new ConnectorStore(tx).update(orgOf(row), row.id, { sync_state: "queued", sync_heartbeat_at: resumeAt, updated_at: at }, { runId })))
            return;
          await this.queue.enqueue(
            "connector.sync",
            { connectorId: row.id, runId },
            { executor: tx, runAt: resumeAt, dedupeKey: `connector-sync:${runId}:${at}:${attempt}` },
          );
        });
        return "rate_limited";
      }
      case "not_found":
      case "bad_cursor":
      case "failed":
        await this.finishFailed(row, runId, SYNC_ERROR_CODES[err.kind], err.message);
        return "failed";
    }
  }
}

const refOf = (r: ResourceRow): ResourceRef => ({
  resourceId: r.resource_id,
  resourceType: r.resource_type,
  displayName: r.display_name,
  providerMetadata: r.provider_metadata ? (JSON.parse(r.provider_metadata) as Record<string, unknown>) : null,
});

/** A page can name an object twice (a reply fetched with its thread and on its own): the last wins. */
function dedupe(items: readonly ObjectItem[]): ObjectItem[] {
  return [...new Map(items.map((i) => [i.sourceId, i])).values()];
}
