import type { Executor, Store } from "../../platform/store/db.js";
import type { IndexingStatus } from "../../platform/store/schema.js";
import type { BlobStore } from "./blob-store.js";
import { graphJobKey, ingestJobKey } from "../ingestion/service.js";
import { ItemStore, type ItemRow } from "./store.js";
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
    const stale = await this.store.db
      .selectFrom("context_items")
      .select(["id", "generation", "status"])
      .where("status", "in", ["queued", "processing", "graph_creation"])
      .where("updated_at", "<", this.now() - this.staleAfterMs)
      .limit(1000)
      .execute();
    let ended = 0;
    for (const item of stale) {
      const job = await this.store.db
        .selectFrom("jobs")
        .select(["status", "last_error"])
        .where("dedupe_key", "=", (item.status === "graph_creation" ? graphJobKey : ingestJobKey)(item.id, item.generation))
        .executeTakeFirst();
      if (job && job.status !== "dead" && job.status !== "completed") continue;
      const message = `indexing job ${job ? "failed" : "was lost"}${job?.last_error ? `: ${job.last_error}` : ""}`;
      if (await this.endWithError(item.id, item.generation, item.status, { code: "PROCESSING_FAILED", message })) ended += 1;
    }
    return ended;
  }

  /** Deletes memories past their expiry_time, with chunks, vectors and postings. */
  async purgeExpired(): Promise<number> {
    const expired = await this.store.db
      .selectFrom("context_items")
      .select(["id", "source_id", "org_id", "database_id", "corpus", "blob_id", "collection"])
      .where("corpus", "=", "memory")
      .where("expires_at", "is not", null)
      .where("expires_at", "<=", this.now())
      .limit(1000)
      .execute();
    for (const item of expired) {
      const keys = await this.store.transaction(async (tx) => {
        const items = new ItemStore(tx);
        const k = await items.chunkKeys(item.id);
        for (const stage of this.purgeStages) await stage(tx, item);
        await items.deleteItem(item.id);
        if (item.blob_id) await this.blobs.delete(tx, item.blob_id);
        return k;
      });
      await this.vectors.indexRemoved({ databaseId: item.database_id, corpus: "memory", collection: item.collection }, keys);
    }
    return expired.length;
  }
}
