import type { Executor, Store } from "../../platform/store/db.js";
import type { IndexingStatus } from "./item-types.js";
import type { BlobStore } from "./blob-store.js";
import { graphJobKey, ingestJobKey } from "../ingestion/service.js";
import { ItemStore, orgOf, type ItemRow } from "./store.js";
import { JobStore } from "../../platform/jobs/job-store.js";
import type { VectorStore } from "../search/vector-store.js";

/** What a purge stage knows of the item it removes (the graph subsystem plugs in here). */
export type PurgedItem = Pick<ItemRow, "id" | "source_id" | "org_id" | "database_id" | "corpus" | "collection">;
export type PurgeStage = (tx: Executor, item: PurgedItem) => Promise<void>;

/** Scheduled upkeep of context items: reconciling lost pipeline jobs and purging expired memories. */
export class ContextMaintenance {
  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly vectors: VectorStore,
    /**
     * Ends an item errored through the pipeline, so status listeners (webhooks) hear of it;
     * only if it is still at this generation and in the state reconcile saw.
     */
    private readonly endWithError: (itemId: string, generation: number, expected: IndexingStatus, error: { code: string; message: string }) => Promise<boolean>,
    /** Run inside the transaction that deletes an expired item (the graph subsystem plugs in here). */
    private readonly purgeStages: readonly PurgeStage[],
    /** Non-terminal items untouched for this long are checked for a lost job (RECONCILE_STALE_AFTER_MS). */
    private readonly staleAfterMs: number = 2 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * An item still short of a terminal state whose pipeline job is gone or dead-lettered (its
   * workers kept dying) would stay stuck forever: end it `errored` with the job's last error.
   * An item whose job is queued or running is left alone, and the end is fenced on the state
   * read here: if its job finishes meanwhile, the item stays `completed`.
   */
  async reconcile(): Promise<number> {
    const stale = await new ItemStore(this.store.db).findStaleAcrossOrganizations(this.now() - this.staleAfterMs, 1000);
    let ended = 0;
    for (const item of stale) {
      const job = await new JobStore(this.store.db, this.store.backend).findByDedupeKey(
        (item.status === "graph_creation" ? graphJobKey : ingestJobKey)(item.id, item.generation),
      );
      if (job && job.status !== "dead" && job.status !== "completed") continue;
      const message = `indexing job ${job ? "failed" : "was lost"}${job?.last_error ? `: ${job.last_error}` : ""}`;
      if (await this.endWithError(item.id, item.generation, item.status, { code: "PROCESSING_FAILED", message })) ended += 1;
    }
    return ended;
  }

  /** Deletes memories past their expiry_time, with chunks, vectors and postings. */
  async purgeExpired(): Promise<number> {
    const expired = await new ItemStore(this.store.db).findExpiredAcrossOrganizations(this.now(), 1000);
    for (const item of expired) {
      const keys = await this.store.transaction(async (tx) => {
        const items = new ItemStore(tx);
        const org = orgOf(item);
        const k = await items.chunkKeys(org, item.id);
        for (const stage of this.purgeStages) await stage(tx, item);
        await items.deleteItem(org, item.id);
        if (item.blob_id) await this.blobs.delete(tx, org, item.blob_id);
        return k;
      });
      await this.vectors.indexRemoved({ orgId: item.org_id, databaseId: item.database_id, corpus: "memory", collection: item.collection }, keys);
    }
    return expired.length;
  }
}
