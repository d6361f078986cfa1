import type { Worker } from "node:worker_threads";
import { spawnModuleWorker } from "../../platform/util/module-worker.js";
import { extractEntities, type EntityExtraction, type ExtractEntitiesContext } from "./extract-entities.js";
import type { ExtractionReply, ExtractionRequest, ExtractionWorkerData } from "./extraction-messages.js";

interface Job {
  readonly id: number;
  readonly texts: readonly string[];
  readonly context: ExtractEntitiesContext;
  resolve(extractions: EntityExtraction[]): void;
  reject(error: Error): void;
}

class Slot {
  worker: Worker | null = null;
  current: Job | undefined;
  constructor(
    /** Serves urgent jobs (queries) only, so a query never waits behind an item's chunks. */
    readonly queryLane: boolean,
  ) {}
}

/**
 * Entity extraction (wink-nlp and compromise: a few milliseconds per sentence) in worker threads,
 * so that building graphs and reading the names a query mentions never hold the thread that
 * answers requests. With two or more workers the first one serves only urgent texts (queries) and
 * the others only the rest; a single worker serves urgent texts first. Workers start on first use and are replaced
 * when one dies (its job fails; the job queue retries it). With 0 workers extraction runs on the
 * caller's thread.
 */
export class ExtractionPool {
  private readonly slots: Slot[];
  private readonly urgent: Job[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    workers: number,
    /** Nice value of the threads that do not serve queries (Linux; see lowerThreadPriority). */
    private readonly backgroundNice = 0,
  ) {
    this.slots = Array.from({ length: workers }, (_, i) => new Slot(workers > 1 && i === 0));
  }

  extract(texts: readonly string[], context: ExtractEntitiesContext, options: { readonly urgent?: boolean } = {}): Promise<EntityExtraction[]> {
    if (texts.length === 0) return Promise.resolve([]);
    if (this.slots.length === 0) return Promise.resolve(texts.map((text) => extractEntities(text, context)));
    if (this.closed) return Promise.reject(new Error("the extraction workers are closed"));
    return new Promise((resolve, reject) => {
      (options.urgent === true ? this.urgent : this.queue).push({ id: this.nextId++, texts, context, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Starts every worker and loads its lexicons (one short text each), so the first query and the
   * first item do not pay for it. Extraction starts them on first use anyway.
   */
  async warmUp(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.extractOn(slot, "Ada Lovelace met Grace Hopper in London on 5 June 2024.")));
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error("the extraction workers are closed");
    for (const job of [...this.urgent.splice(0), ...this.queue.splice(0)]) job.reject(error);
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.current?.reject(error);
        slot.current = undefined;
        const worker = slot.worker;
        slot.worker = null;
        await worker?.terminate();
      }),
    );
  }

  /** One text on one given slot, ahead of the queues (warm-up). */
  private extractOn(slot: Slot, text: string): Promise<EntityExtraction[]> {
    if (this.closed) return Promise.reject(new Error("the extraction workers are closed"));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, texts: [text], context: {}, resolve, reject };
      if (slot.current === undefined) this.start(slot, job);
      else this.urgent.unshift(job);
    });
  }

  private start(slot: Slot, job: Job): void {
    slot.current = job;
    this.workerOf(slot).postMessage({ jobId: job.id, texts: job.texts, context: job.context } satisfies ExtractionRequest);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current !== undefined) continue;
      // With a query lane, queries wait for it rather than take a background slot, whose thread
      // yields the cores (backgroundNice) and could hold a query for seconds on a busy machine.
      // A single worker serves both, urgent texts first (it once served only urgent ones, so with
      // EXTRACTION_WORKERS=1 no item's graph was ever built).
      const job = slot.queryLane ? this.urgent.shift() : this.slots.length === 1 ? (this.urgent.shift() ?? this.queue.shift()) : this.queue.shift();
      if (job !== undefined) this.start(slot, job);
    }
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker !== null) return slot.worker;
    // A slot that also serves queries (the only one, or the query lane) keeps its priority.
    const servesQueries = slot.queryLane || this.slots.length === 1;
    const worker = spawnModuleWorker(import.meta.url, "extraction-worker", { nice: servesQueries ? 0 : this.backgroundNice } satisfies ExtractionWorkerData);
    // An idle worker never keeps the process alive; shutdown closes the pool anyway.
    worker.unref();
    worker.on("message", (reply: ExtractionReply) => {
      const job = slot.current;
      if (job === undefined || job.id !== reply.jobId) return;
      slot.current = undefined;
      if (reply.type === "result") job.resolve(reply.extractions);
      else job.reject(new Error(`entity extraction failed: ${reply.message}`));
      this.dispatch();
    });
    const lost = (error: Error): void => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      slot.current?.reject(error);
      slot.current = undefined;
      if (!this.closed) this.dispatch();
    };
    worker.on("error", (err) => lost(new Error(`the extraction worker crashed: ${err.message}`)));
    worker.on("exit", (code) => lost(new Error(`the extraction worker exited with code ${code}`)));
    slot.worker = worker;
    return worker;
  }
}
