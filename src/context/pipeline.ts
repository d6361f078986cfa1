import { randomUUID } from "node:crypto";
import type { SharedEmbedder } from "../embeddings/shared-embedder.js";
import type { JobContext } from "../jobs/worker.js";
import type { Executor, Store } from "../store/db.js";
import type { IndexingStatus } from "../store/schema.js";
import { termFrequencies } from "../text/index.js";
import type { ChunkBuilder } from "./build-chunks.js";
import { ItemStore, type ItemRow } from "./item-store.js";
import type { StatusListener } from "./status-events.js";
import type { VectorScope, VectorStore } from "./vector-store.js";

/**
 * Builds the graph of an item in the `ingest.graph` job (the graph subsystem plugs in here):
 * `prepare` runs outside any transaction (the CPU-heavy extraction, a chat model call) and its
 * result goes to `write`, inside the transaction that marks the item completed, so the write
 * lock is held only for writes.
 */
export interface GraphStage<P> {
  prepare(item: ItemRow, chunkKeys: readonly number[]): Promise<P>;
  write(tx: Executor, item: ItemRow, chunkKeys: readonly number[], prepared: P): Promise<void>;
}

type PreparedWrite = (tx: Executor) => Promise<void>;

/** Schedules an item's graph job inside the transaction that makes it searchable. */
export type GraphScheduler = (tx: Executor, item: ItemRow) => Promise<void>;

class Superseded extends Error {}

const scopeOf = (item: ItemRow): VectorScope => ({ databaseId: item.database_id, corpus: item.corpus, collection: item.collection });

/**
 * The indexing pipeline of one item, as two jobs:
 * `ingest.item`: queued -> processing (parse, chunk, embed) -> graph_creation (chunks, postings
 * and vectors stored: searchable), which enqueues in the same transaction
 * `ingest.graph`: graph_creation -> completed (graph built).
 * Either ends errored with a code on failure. Every write is fenced on the item's generation,
 * so a job of a replaced (upserted) item stops without writing. Graph building is a job of its
 * own so that it can run at background priority: making items searchable comes first.
 */
export class IngestPipeline {
  private readonly listeners: StatusListener[] = [];
  private readonly graphStages: Array<(item: ItemRow, chunkKeys: readonly number[]) => Promise<PreparedWrite>> = [];

  constructor(
    private readonly store: Store,
    private readonly builder: ChunkBuilder,
    private readonly embedder: SharedEmbedder,
    private readonly vectors: VectorStore,
    private readonly scheduleGraph: GraphScheduler,
    private readonly now: () => number = Date.now,
  ) {}

  /** Loads the embedding model now rather than on the first item (benchmarks, eager nodes). */
  async warmUp(): Promise<void> {
    await this.embedder.embed(["warm up"]);
  }

  onStatusChange(listener: StatusListener): void {
    this.listeners.push(listener);
  }

  addGraphStage<P>(stage: GraphStage<P>): void {
    this.graphStages.push(async (item, chunkKeys) => {
      const prepared = await stage.prepare(item, chunkKeys);
      return (tx) => stage.write(tx, item, chunkKeys, prepared);
    });
  }

  /** The `ingest.item` job: to searchable. */
  async process(itemId: string, generation: number, ctx: JobContext): Promise<void> {
    await this.runJob(itemId, generation, ctx, ["queued", "processing"], (item) => this.index(item, ctx));
  }

  /** The `ingest.graph` job: from searchable to completed. */
  async buildGraph(itemId: string, generation: number, ctx: JobContext): Promise<void> {
    await this.runJob(itemId, generation, ctx, ["graph_creation"], (item) => this.graph(item));
  }

  private async runJob(
    itemId: string,
    generation: number,
    ctx: JobContext,
    from: readonly IndexingStatus[],
    step: (item: ItemRow) => Promise<void>,
  ): Promise<void> {
    const item = await new ItemStore(this.store.db).getById(itemId);
    if (!item || item.generation !== generation || !from.includes(item.status)) return;
    try {
      await step(item);
    } catch (err) {
      if (err instanceof Superseded) return;
      // The last attempt must leave the item terminal rather than stuck mid-pipeline.
      if (ctx.job.attempts >= ctx.job.maxAttempts) {
        const message = err instanceof Error ? err.message : String(err);
        await this.setStatus(item, "errored", { code: "PROCESSING_FAILED", message: `indexing failed: ${message}` }).catch(() => undefined);
        return;
      }
      throw err;
    }
  }

  /** Ends an item `errored` (reconciliation of lost jobs); false when it was replaced or is gone. */
  async endWithError(itemId: string, generation: number, error: { code: string; message: string }): Promise<boolean> {
    const item = await new ItemStore(this.store.db).getById(itemId);
    if (!item || item.generation !== generation) return false;
    try {
      await this.setStatus(item, "errored", error);
      return true;
    } catch (err) {
      if (err instanceof Superseded) return false;
      throw err;
    }
  }

  private async index(item: ItemRow, ctx: JobContext): Promise<void> {
    await this.setStatus(item, "processing");
    const built = await this.builder.build(item);
    if (!built.ok) {
      await this.setStatus(item, "errored", { code: built.code, message: built.message });
      return;
    }
    if (built.chunks.length === 0) {
      await this.setStatus(item, "errored", { code: "PROCESSING_FAILED", message: "the item has no indexable text" });
      return;
    }
    const vectors = await this.embedder.embed(built.chunks.map((c) => c.text));
    if (ctx.signal.aborted) throw new Error("aborted");
    await this.vectors.prepare(vectors[0]?.length ?? 0);
    const chunkKeys = await this.store.transaction(async (tx) => {
      const items = new ItemStore(tx);
      await items.deleteChunks(item.id); // leftovers of an interrupted earlier attempt
      const keys = await items.insertChunks(
        item,
        built.chunks.map((c) => ({
          chunk_uuid: randomUUID(),
          position: c.position,
          content: c.text,
          section_path: c.sectionPath,
          page: c.page ?? null,
          unit: c.unit ?? null,
          token_count: c.tokenCount,
          terms: termFrequencies(c.text),
        })),
      );
      await this.vectors.insert(tx, scopeOf(item), keys, vectors);
      await this.setStatusIn(tx, item, "graph_creation", null, { chunk_count: keys.length, inferred_content: built.inferred });
      await this.scheduleGraph(tx, item);
      return keys;
    });
    await this.vectors.indexAdded(scopeOf(item), chunkKeys, vectors);
  }

  private async graph(item: ItemRow): Promise<void> {
    const chunkKeys = await new ItemStore(this.store.db).chunkKeys(item.id);
    const writes: PreparedWrite[] = [];
    for (const stage of this.graphStages) writes.push(await stage(item, chunkKeys));
    await this.store.transaction(async (tx) => {
      for (const write of writes) await write(tx);
      await this.setStatusIn(tx, item, "completed");
    });
  }

  private async setStatus(item: ItemRow, status: IndexingStatus, error: { code: string; message: string } | null = null): Promise<void> {
    await this.store.transaction((tx) => this.setStatusIn(tx, item, status, error));
  }

  private async setStatusIn(
    tx: Executor,
    item: ItemRow,
    status: IndexingStatus,
    error: { code: string; message: string } | null = null,
    extra: Partial<Pick<ItemRow, "chunk_count" | "inferred_content">> = {},
  ): Promise<void> {
    const updated = await new ItemStore(tx).setStatus(item.id, item.generation, status, this.now(), error, extra);
    if (!updated) throw new Superseded();
    if (this.listeners.length === 0) return;
    const db = await tx.selectFrom("databases").select("name").where("id", "=", item.database_id).executeTakeFirst();
    for (const listener of this.listeners) {
      await listener(tx, {
        orgId: item.org_id,
        database: db?.name ?? "",
        collection: item.collection,
        itemId: item.source_id,
        indexingStatus: status,
        errorCode: error?.code ?? null,
        errorMessage: error?.message ?? null,
      });
    }
  }
}
