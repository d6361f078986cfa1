import type { Worker } from "node:worker_threads";
import { spawnModuleWorker } from "../../platform/util/module-worker.js";
import { EmbedderError } from "./embedder.js";
import type { EmbedOptions, Embedder } from "./embedder.js";
import type { BuiltUseLite, UseLitePrecision } from "./use-lite-model.js";
import type { UseLiteWorkerData, WorkerReply, WorkerRequest } from "./worker-messages.js";

export interface LocalEmbedderConfig {
  /** Worker threads, one model each (about 200 MB RSS per worker); default 2. */
  workers?: number;
  /** Texts per model call; larger batches amortise graph overhead, smaller ones spread across workers. Default 32. */
  batchSize?: number;
  /** Maximum wait for all workers to load the model; default 60 s. */
  loadTimeoutMs?: number;
  /**
   * Extra worker threads that embed only urgent texts (queries), so a query never waits behind
   * ingestion's batches on the `workers`. Default 0 here (batch users); the service sets
   * EMBEDDING_QUERY_WORKERS, default 1. Each costs one more model (about 200 MB RSS).
   */
  queryWorkers?: number;
  /**
   * Nice value of the batch workers' threads (Linux): above 0 they yield the cores to requests and
   * the query lanes when the machine is busy. Default 0 here; the service sets INDEXING_NICE.
   */
  batchNice?: number;
  /** `int8`: the dense layers in int8 (about 1.5x faster, cosine 0.9987 to float32). Default float32 here; the service sets EMBEDDING_PRECISION. */
  precision?: UseLitePrecision;
}

const DIMENSIONS = 512;

interface Job {
  id: number;
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

/** How long closing waits for model calls under way before it stops the threads anyway. */
const CLOSE_WAIT_MS = 10_000;

class WorkerSlot {
  current: Job | undefined;
  private readonly idleWaiters: Array<() => void> = [];
  constructor(
    readonly worker: Worker,
    /** Serves urgent jobs only. */
    readonly queryLane: boolean,
  ) {}

  /** The worker's call is over (answered, failed or its thread gone). */
  settle(): void {
    this.current = undefined;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Resolves once the worker has no call under way. */
  idle(): Promise<void> {
    return this.current === undefined ? Promise.resolve() : new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}

class LocalEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions = DIMENSIONS;
  private readonly queue: Job[] = [];
  /** Queries' texts: dispatched before `queue`, to the query lane or any idle worker. */
  private readonly urgent: Job[] = [];
  private nextJobId = 1;
  private failure: Error | undefined;
  private closed = false;
  /** The query lane first, so an urgent job takes it rather than a batch worker that a batch could use. */
  private readonly dispatchOrder: WorkerSlot[];
  private readonly hasQueryLane: boolean;

  constructor(
    private readonly slots: WorkerSlot[],
    private readonly batchSize: number,
    precision: UseLitePrecision,
  ) {
    this.id = `local:use-lite${precision === "int8" ? "-int8" : ""}:${DIMENSIONS}`;
    this.dispatchOrder = [...slots].sort((a, b) => Number(b.queryLane) - Number(a.queryLane));
    this.hasQueryLane = slots.some((s) => s.queryLane);
    for (const slot of slots) {
      slot.worker.on("message", (reply: WorkerReply) => this.onReply(slot, reply));
      slot.worker.on("error", (error) => this.fail(slot, error));
      slot.worker.on("exit", (code) => {
        if (!this.closed) this.fail(slot, new EmbedderError(`embedding worker exited with code ${code}`));
      });
    }
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    if (this.closed) throw new EmbedderError("embedder is closed");
    if (this.failure !== undefined) throw this.failure;
    if (texts.length === 0) return [];
    const queue = options.urgent === true ? this.urgent : this.queue;
    const batches: Promise<Float32Array[]>[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize);
      batches.push(new Promise((resolve, reject) => queue.push({ id: this.nextJobId++, texts: batch, resolve, reject })));
    }
    this.dispatch();
    return (await Promise.all(batches)).flat();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new EmbedderError("embedder closed");
    for (const job of [...this.urgent.splice(0), ...this.queue.splice(0)]) job.reject(error);
    for (const slot of this.slots) slot.current?.reject(error);
    // A thread stopped in the middle of a model call aborts the whole process (onnxruntime's
    // completion meets a torn-down thread: "terminate called after throwing Napi::Error"), as a
    // shutdown during the embedder's warm-up did. The callers have their error already; the
    // threads finish their call first.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.slots.map((s) => s.idle())), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    for (const slot of this.dispatchOrder) {
      if (slot.current !== undefined) continue;
      // Batch workers take queries only when there is no query lane: their threads yield the
      // cores (batchNice) and could hold a query for seconds on a busy machine.
      const job = slot.queryLane || !this.hasQueryLane ? (this.takeUrgent() ?? (slot.queryLane ? undefined : this.queue.shift())) : this.queue.shift();
      if (job === undefined) continue;
      slot.current = job;
      slot.worker.postMessage({ jobId: job.id, texts: job.texts } satisfies WorkerRequest);
    }
  }

  /**
   * The waiting urgent jobs as one model call, up to a batch: queries that arrive while the lane
   * is busy wait together, and one call of 8 short texts costs 10 ms of CPU per text where 8 calls
   * cost 31 ms each (bench:embeddings), so under load the lane keeps up three times longer. A
   * query that finds the lane idle still goes alone, at once.
   */
  private takeUrgent(): Job | undefined {
    const first = this.urgent.shift();
    if (first === undefined || this.urgent.length === 0 || first.texts.length >= this.batchSize) return first;
    const jobs = [first];
    let texts = first.texts.length;
    while (this.urgent.length > 0 && texts + this.urgent[0]!.texts.length <= this.batchSize) {
      const next = this.urgent.shift()!;
      jobs.push(next);
      texts += next.texts.length;
    }
    if (jobs.length === 1) return first;
    return {
      id: this.nextJobId++,
      texts: jobs.flatMap((j) => j.texts),
      resolve: (vectors) => {
        let at = 0;
        for (const j of jobs) {
          j.resolve(vectors.slice(at, at + j.texts.length));
          at += j.texts.length;
        }
      },
      reject: (error) => {
        for (const j of jobs) j.reject(error);
      },
    };
  }

  private onReply(slot: WorkerSlot, reply: WorkerReply): void {
    const job = slot.current;
    switch (reply.type) {
      case "ready":
      case "failed":
        return;
      case "result":
        slot.settle();
        if (job?.id === reply.jobId) job.resolve(reply.vectors);
        break;
      case "error":
        slot.settle();
        if (job?.id === reply.jobId) job.reject(new EmbedderError(`local embedding failed: ${reply.message}`));
        break;
    }
    this.dispatch();
  }

  /** A crashed worker takes the embedder down: silently running on fewer workers would hide it. */
  private fail(slot: WorkerSlot, error: Error): void {
    const failure = error instanceof EmbedderError ? error : new EmbedderError(`embedding worker crashed: ${error.message}`);
    this.failure ??= failure;
    slot.current?.reject(failure);
    slot.settle();
    for (const job of [...this.urgent.splice(0), ...this.queue.splice(0)]) job.reject(failure);
  }
}

interface Started {
  readonly slot: WorkerSlot;
  /** The model the worker built (when it was not given one). */
  readonly model: BuiltUseLite | undefined;
}

function startWorker(loadTimeoutMs: number, queryLane: boolean, batchNice: number, precision: UseLitePrecision, model?: BuiltUseLite): Promise<Started> {
  const data: UseLiteWorkerData = { nice: queryLane ? 0 : batchNice, precision, ...(model === undefined ? {} : { model }) };
  const worker = spawnModuleWorker(import.meta.url, "use-lite-worker", data);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new EmbedderError(`local model did not load within ${loadTimeoutMs} ms`));
    }, loadTimeoutMs);
    const onMessage = (reply: WorkerReply): void => {
      if (reply.type !== "ready" && reply.type !== "failed") return;
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      if (reply.type === "ready") resolve({ slot: new WorkerSlot(worker, queryLane), model: reply.model });
      else {
        void worker.terminate();
        reject(new EmbedderError(`local model failed to load: ${reply.message}`));
      }
    };
    const onError = (error: Error): void => {
      clearTimeout(timer);
      reject(new EmbedderError(`embedding worker failed to start: ${error.message}`));
    };
    worker.on("message", onMessage);
    worker.once("error", onError);
  });
}

/** Starts the worker pool and resolves once every worker has loaded its model. */
export async function createLocalEmbedder(config: LocalEmbedderConfig = {}): Promise<Embedder> {
  const workers = config.workers ?? 2;
  const batchSize = config.batchSize ?? 32;
  const queryWorkers = config.queryWorkers ?? 0;
  const precision = config.precision ?? "float32";
  if (!Number.isInteger(workers) || workers < 1) throw new EmbedderError(`workers must be a positive integer, got ${workers}`);
  if (!Number.isInteger(queryWorkers) || queryWorkers < 0) throw new EmbedderError(`queryWorkers must be a non-negative integer, got ${queryWorkers}`);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new EmbedderError(`batchSize must be a positive integer, got ${batchSize}`);
  // The query lanes first: the first worker builds the model (about 1 s of CPU on a cold thread,
  // measured 2026-11-29) and the others load what it built; a query lane builds it at nice 0.
  const [first, ...rest] = [...Array.from({ length: queryWorkers }, () => true), ...Array.from({ length: workers }, () => false)];
  const start = (queryLane: boolean, model?: BuiltUseLite): Promise<Started> =>
    startWorker(config.loadTimeoutMs ?? 60_000, queryLane, config.batchNice ?? 0, precision, model);
  const builder = await start(first ?? false);
  const started = await Promise.allSettled(rest.map((queryLane) => start(queryLane, builder.model)));
  const slots = [builder.slot, ...started.flatMap((s) => (s.status === "fulfilled" ? [s.value.slot] : []))];
  const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed !== undefined) {
    await Promise.all(slots.map((s) => s.worker.terminate()));
    throw failed.reason instanceof Error ? failed.reason : new EmbedderError(String(failed.reason));
  }
  return new LocalEmbedder(slots, batchSize, precision);
}
