import { newId } from "../../platform/util/ids.js";
import type { SharedEmbedder } from "../../engines/embeddings/shared-embedder.js";
import type { JobContext } from "../../platform/jobs/worker.js";
import type { ClaimedJob } from "../../platform/jobs/queue.js";
import type { Executor, Store } from "../../platform/store/db.js";
import type { IndexingStatus } from "../items/item-types.js";
import type { TermCounter } from "../../engines/bm25/term-counter.js";
import type { ChunkBuilder } from "./build-chunks.js";
import { yieldToEventLoop } from "../../platform/util/yield-to-event-loop.js";
import { Coalescer } from "../../platform/util/coalescer.js";
import type { ByteBudget } from "../../platform/util/byte-budget.js";
import { ItemStore, movedKey, orgOf, type ChunkInsert, type ItemRow, type StatusExtra } from "../items/store.js";
import { DatabaseStore } from "../databases/store.js";
import type { StatusListener } from "./status-events.js";
import type { VectorScope, VectorStore } from "../search/vector-store.js";
import { isStoreUnavailable } from "../../platform/store/errors.js";

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

/** A graph stage as the pipeline runs it: prepare now, write later in the completing transaction. */
export type PreparingStage = (item: ItemRow, chunkKeys: readonly number[]) => Promise<PreparedWrite>;

/** Adapts a GraphStage, whatever its prepared type, to the pipeline. */
export function graphStage<P>(stage: GraphStage<P>): PreparingStage {
  return async (item, chunkKeys) => {
    const prepared = await stage.prepare(item, chunkKeys);
    return (tx) => stage.write(tx, item, chunkKeys, prepared);
  };
}

/** What other subsystems plug into the pipeline. */
export interface PipelineStages {
  /** Run in `ingest.graph`, in this order (graphStage(...)). */
  readonly graph: readonly PreparingStage[];
  /** Told of every status change, inside the transaction that writes it (the webhook outbox). */
  readonly statusListeners: readonly StatusListener[];
  /**
   * Taken between the pipeline's steps on the request thread (before each group write; never
   * inside a transaction): one step per pass of the event loop
   * (background-turns.ts), so a request's next step never waits behind many of them.
   */
  readonly turn?: () => Promise<void>;
  /**
   * Bounds what the items between loading and their group write hold at once (many concurrent
   * jobs of large files could otherwise hold gigabytes).
   */
  readonly memory: ByteBudget;
  /** Counts the chunks' BM25 terms off the request thread. */
  readonly terms: TermCounter;
}

/** The job writes made inside the transaction that makes items searchable. */
export interface PipelineJobs {
  /** Enqueues the items' `ingest.graph` jobs. */
  scheduleGraph(tx: Executor, items: readonly ItemRow[]): Promise<void>;
  /** Completes the `ingest.item` jobs whose work the transaction commits (those whose lease is still held). */
  complete(tx: Executor, jobs: readonly ClaimedJob[]): Promise<void>;
}

/** An item ready to become searchable: its chunks and their vectors. */
interface Searchable {
  readonly item: ItemRow;
  readonly chunks: readonly ChunkInsert[];
  readonly vectors: readonly Float32Array[];
  readonly inferred: string | null;
  /** Its `ingest.item` job: completed in the same transaction; a retried one clears whatever an earlier attempt may have left. */
  readonly ctx: JobContext;
}

class Superseded extends Error {}

const scopeOf = (item: ItemRow): VectorScope => ({ orgId: item.org_id, databaseId: item.database_id, corpus: item.corpus, collection: item.collection });

/**
 * The indexing pipeline of one item, as two jobs:
 * `ingest.item`: queued -> processing (parse, chunk, embed) -> graph_creation (chunks, postings
 * and vectors stored: searchable), which enqueues in the same transaction
 * `ingest.graph`: graph_creation -> completed (graph built).
 * Either ends errored with a code on failure. Every write is fenced on the item's generation
 * and its expected current state, so a job of a replaced (upserted) item stops without writing
 * and a terminal state (completed, errored) is never overwritten. Graph building is a job of its
 * own so that it can run at background priority: making items searchable comes first.
 * Concurrent jobs share their writes (group commit): items loaded, started and made searchable
 * together take one transaction and a few multi-row statements, not a dozen round trips each.
 */
export class IngestPipeline {
  private readonly listeners: readonly StatusListener[];
  private readonly graphStages: readonly PreparingStage[];
  /** Database names for status events; a database's name never changes. */
  private readonly databaseNames = new Map<string, string>();
  private readonly turn: () => Promise<void>;
  private readonly memory: ByteBudget;
  private readonly terms: TermCounter;
  private readonly loads: Coalescer<string, ItemRow | undefined>;
  private readonly starts: Coalescer<ItemRow, boolean>;
  private readonly searchable: Coalescer<Searchable, number[] | null>;
  private readonly completions: Coalescer<{ item: ItemRow; writes: readonly PreparedWrite[] }, boolean>;

  constructor(
    private readonly store: Store,
    private readonly builder: ChunkBuilder,
    private readonly embedder: SharedEmbedder,
    private readonly vectors: VectorStore,
    private readonly jobs: PipelineJobs,
    stages: PipelineStages,
    private readonly now: () => number = Date.now,
  ) {
    this.graphStages = stages.graph;
    this.listeners = stages.statusListeners;
    this.turn = stages.turn ?? yieldToEventLoop;
    this.memory = stages.memory;
    this.terms = stages.terms;
    this.loads = new Coalescer((ids) => new ItemStore(this.store.db).getByIdsAcrossOrganizations(ids), undefined, this.turn);
    this.starts = new Coalescer((items) => this.startItems(items), undefined, this.turn);
    this.searchable = new Coalescer((entries) => this.makeSearchable(entries), undefined, this.turn);
    this.completions = new Coalescer((entries) => this.completeItems(entries), undefined, this.turn);
  }

  /** Loads the embedding model and starts the term worker now rather than on the first item (benchmarks, eager nodes). */
  async warmUp(texts: string[] = ["warm up"]): Promise<void> {
    await Promise.all([this.embedder.embed(texts), this.terms.warmUp()]);
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
    const item = await this.loads.submit(itemId);
    if (!item || item.generation !== generation || !from.includes(item.status)) return;
    try {
      await step(item);
    } catch (err) {
      if (err instanceof Superseded) return;
      // The last attempt must leave the item terminal rather than stuck mid-pipeline; an outage
      // of the store is not the item's failure: its job waits for the store (JobWorker).
      if (ctx.job.attempts >= ctx.job.maxAttempts && !isStoreUnavailable(err)) {
        const message = err instanceof Error ? err.message : String(err);
        await this.setStatus(item, from, "errored", { code: "PROCESSING_FAILED", message: `indexing failed: ${message}` }).catch(() => undefined);
        return;
      }
      throw err;
    }
  }

  /**
   * Ends an item `errored` (reconciliation of lost jobs) if it is still at `generation` and in
   * the `expected` state; false when it was replaced, moved on (a late job finished it) or is gone.
   */
  async endWithError(itemId: string, generation: number, expected: IndexingStatus, error: { code: string; message: string }): Promise<boolean> {
    // Called by the reconcile job, which looks at the items of every organization.
    const [item] = await new ItemStore(this.store.db).getByIdsAcrossOrganizations([itemId]);
    if (!item || item.generation !== generation) return false;
    try {
      await this.setStatus(item, [expected], "errored", error);
      return true;
    } catch (err) {
      if (err instanceof Superseded) return false;
      throw err;
    }
  }

  private async index(item: ItemRow, ctx: JobContext): Promise<void> {
    if (!(await this.starts.submit(item))) throw new Superseded();
    const release = await this.memory.take(await this.builder.weight(item));
    try {
      await this.buildAndStore(item, ctx);
    } finally {
      release();
    }
  }

  /** Parse, chunk, embed and tokenize one started item, then make it searchable in a group write. */
  private async buildAndStore(item: ItemRow, ctx: JobContext): Promise<void> {
    const built = await this.builder.build(item);
    if (!built.ok) {
      await this.setStatus(item, ["processing"], "errored", { code: built.code, message: built.message });
      return;
    }
    if (built.chunks.length === 0) {
      await this.setStatus(item, ["processing"], "errored", { code: "PROCESSING_FAILED", message: "the item has no indexable text" });
      return;
    }
    const texts = built.chunks.map((c) => c.text);
    // The BM25 terms are counted in the term worker beside the embedding.
    const counting = this.terms.count(texts);
    counting.catch(() => undefined); // awaited below; this only marks it handled meanwhile
    const vectors = await this.embedder.embed(texts);
    if (ctx.signal.aborted) throw new Error("aborted");
    await this.vectors.prepare(vectors[0]?.length ?? 0);
    const counted = await counting;
    const chunks: ChunkInsert[] = [];
    for (const [i, c] of built.chunks.entries()) {
      chunks.push({
        chunk_uuid: newId(),
        position: c.position,
        content: c.text,
        section_path: c.sectionPath,
        page: c.page ?? null,
        unit: c.unit ?? null,
        token_count: c.tokenCount,
        terms: counted[i]!,
      });
    }
    const keys = await this.searchable.submit({ item, chunks, vectors, inferred: built.inferred, ctx });
    if (!keys) throw new Superseded();
  }

  /** queued -> processing for several items in one transaction; false for an item replaced meanwhile. */
  private async startItems(items: readonly ItemRow[]): Promise<boolean[]> {
    return this.store.transaction((tx) =>
      this.trySetStatusesIn(
        tx,
        items.map((item) => ({ item })),
        ["queued", "processing"],
        "processing",
      ),
    );
  }

  /**
   * processing -> graph_creation for several items in one transaction: their chunks, postings
   * and vectors in multi-row statements, their graph jobs scheduled. An item replaced meanwhile
   * (its generation moved on) gets null and nothing of it is written.
   */
  private async makeSearchable(entries: readonly Searchable[]): Promise<Array<number[] | null>> {
    const written = await this.store.transaction(async (tx) => {
      const items = new ItemStore(tx);
      const live: Searchable[] = [];
      const moved = await this.trySetStatusesIn(
        tx,
        entries.map((e) => ({ item: e.item, extra: { chunk_count: e.chunks.length, inferred_content: e.inferred } })),
        ["processing"],
        "graph_creation",
      );
      for (const [n, e] of entries.entries()) {
        if (moved[n] !== true) continue;
        // Leftovers of an interrupted earlier attempt go only once the fence passed: an attempt
        // that lost the race (another one, claimed after this one's lease expired, already made
        // the item searchable) must not delete the winner's chunks. The fault suite found items
        // completed with chunk_count 2 and no chunks that way.
        if (e.ctx.job.attempts > 1) await items.deleteChunks(orgOf(e.item), e.item.id);
        live.push(e);
      }
      const keys = await items.insertChunksOf(live);
      await this.vectors.insertMany(
        tx,
        live.map((e, i) => ({ scope: scopeOf(e.item), keys: keys[i]!, vectors: e.vectors })),
      );
      await this.jobs.scheduleGraph(
        tx,
        live.map((e) => e.item),
      );
      // Their jobs complete with them: one statement here rather than a transaction of their own.
      await this.jobs.complete(
        tx,
        live.map((e) => e.ctx.job),
      );
      for (const e of live) e.ctx.completedIn(tx);
      return new Map(live.map((e, i) => [e, keys[i]!]));
    });
    await this.vectors.indexAddedMany([...written].map(([e, keys]) => ({ scope: scopeOf(e.item), keys, vectors: e.vectors })));
    return entries.map((e) => written.get(e) ?? null);
  }

  private async graph(item: ItemRow): Promise<void> {
    const chunkKeys = await new ItemStore(this.store.db).chunkKeys(orgOf(item), item.id);
    const writes: PreparedWrite[] = [];
    for (const stage of this.graphStages) writes.push(await stage(item, chunkKeys));
    if (!(await this.completions.submit({ item, writes }))) throw new Superseded();
  }

  /**
   * graph_creation -> completed for several items in one transaction, their graphs written one
   * after the other: graphs of one collection share entity rows, and concurrent transactions
   * would each hold those rows locked while they wait on the event loop.
   */
  private async completeItems(entries: ReadonlyArray<{ item: ItemRow; writes: readonly PreparedWrite[] }>): Promise<boolean[]> {
    return this.store.transaction(async (tx) => {
      const completed = await this.trySetStatusesIn(tx, entries, ["graph_creation"], "completed");
      for (const [n, { writes }] of entries.entries()) if (completed[n] === true) for (const write of writes) await write(tx);
      return completed;
    });
  }

  private async setStatus(
    item: ItemRow,
    from: readonly IndexingStatus[],
    status: IndexingStatus,
    error: { code: string; message: string } | null = null,
  ): Promise<void> {
    const [moved] = await this.store.transaction((tx) => this.trySetStatusesIn(tx, [{ item }], from, status, error));
    if (moved !== true) throw new Superseded();
  }

  /**
   * Moves the items' generations from one of the `from` states to `status` (in a few statements)
   * and tells the listeners of each that moved; false for an item replaced meanwhile or no longer
   * in a `from` state (a terminal state is never left: a late job or reconcile cannot overwrite
   * it, nor announce it twice). An item listed twice moves once: the second entry stands only if
   * `status` is itself a `from` state.
   */
  private async trySetStatusesIn(
    tx: Executor,
    entries: ReadonlyArray<{ readonly item: ItemRow; readonly extra?: StatusExtra }>,
    from: readonly IndexingStatus[],
    status: IndexingStatus,
    error: { code: string; message: string } | null = null,
  ): Promise<boolean[]> {
    const moved = await new ItemStore(tx).setStatusMany(entries, from, status, this.now(), error);
    const announced = new Set<string>();
    const out: boolean[] = [];
    for (const { item, extra } of entries) {
      const key = movedKey(item);
      const live = moved.has(key) && (!announced.has(key) || from.includes(status));
      out.push(live);
      if (!live || announced.has(key)) continue;
      announced.add(key);
      await this.announce(tx, item, status, error, extra?.chunk_count ?? 0);
    }
    return out;
  }

  /** Tells the listeners of an item's new status, inside the transaction that wrote it. */
  private async announce(
    tx: Executor,
    item: ItemRow,
    status: IndexingStatus,
    error: { code: string; message: string } | null,
    chunkCount: number,
  ): Promise<void> {
    if (this.listeners.length === 0) return;
    const database = await this.databaseName(tx, item);
    for (const listener of this.listeners) {
      await listener(tx, {
        orgId: item.org_id,
        database,
        collection: item.collection,
        itemId: item.source_id,
        indexingStatus: status,
        errorCode: error?.code ?? null,
        errorMessage: error?.message ?? null,
        chunkCount,
      });
    }
  }

  private async databaseName(tx: Executor, item: ItemRow): Promise<string> {
    const known = this.databaseNames.get(item.database_id);
    if (known !== undefined) return known;
    const row = await new DatabaseStore(tx).getById(orgOf(item), item.database_id);
    if (row) this.databaseNames.set(item.database_id, row.name);
    return row?.name ?? "";
  }
}
