import type { Worker } from "node:worker_threads";
import { spawnModuleWorker } from "../../platform/util/module-worker.js";
import { termFrequencies } from "./tokenize.js";
import type { TermReply, TermRequest, TermWorkerData } from "./term-messages.js";

interface Pending {
  readonly texts: readonly string[];
  resolve(counts: Array<Map<string, number>>): void;
  reject(error: Error): void;
}

/** Texts per message: the reply's maps are rebuilt on the caller's thread, so a long document's are rebuilt a batch at a time. */
const TEXTS_PER_MESSAGE = 64;

const inline = (texts: readonly string[]): Array<Map<string, number>> => texts.map((text) => termFrequencies(text));

/**
 * The BM25 terms of ingested chunks (termFrequencies, the same function queries use) counted in a
 * worker thread, so that tokenization (about a tenth of the request thread while items were being
 * made searchable with a fast embedder) runs beside the embedding instead of on the thread that
 * answers requests. The worker starts on first use and again after it dies; what it had not
 * answered is counted on the caller's thread, so a crash costs time, never a result. A text the
 * worker fails on is counted on the caller's thread too, where it fails the same way for its job.
 */
export class TermCounter {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    /** Nice value of the worker's thread (Linux; see lowerThreadPriority). */
    private readonly nice = 0,
  ) {}

  /** Per text, its terms and their counts. */
  async count(texts: readonly string[]): Promise<Array<Map<string, number>>> {
    if (this.closed) return inline(texts);
    const parts: Array<Promise<Array<Map<string, number>>>> = [];
    for (let i = 0; i < texts.length; i += TEXTS_PER_MESSAGE) parts.push(this.post(texts.slice(i, i + TEXTS_PER_MESSAGE)));
    return (await Promise.all(parts)).flat();
  }

  /** Starts the worker and loads its model (a short text), so the first ingested item does not wait for it. */
  async warmUp(): Promise<void> {
    await this.count(["warm up"]);
  }

  /** Stops the worker; what it had not answered is counted here, and later calls count on this thread. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.settleInline();
    await worker?.terminate();
  }

  private post(texts: readonly string[]): Promise<Array<Map<string, number>>> {
    let worker: Worker;
    try {
      worker = this.worker ?? this.spawn();
    } catch {
      // No thread to be had (a resource limit): the counts are the same from this one.
      return Promise.resolve().then(() => inline(texts));
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      // While it has work the worker keeps the process alive; idle, it does not.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { texts, resolve, reject });
      const request: TermRequest = { id, texts };
      worker.postMessage(request);
    });
  }

  private spawn(): Worker {
    const data: TermWorkerData = { nice: this.nice };
    const worker = spawnModuleWorker(import.meta.url, "term-worker", data);
    worker.on("message", (reply: TermReply) => this.answer(reply));
    const lost = (): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.settleInline();
    };
    worker.on("error", lost);
    worker.on("exit", lost);
    this.worker = worker;
    return worker;
  }

  private answer(reply: TermReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ("error" in reply) {
      this.settle(pending);
      return;
    }
    pending.resolve(
      reply.counts.map(([terms, counts]) => {
        const map = new Map<string, number>();
        for (let i = 0; i < terms.length; i++) map.set(terms[i]!, counts[i]!);
        return map;
      }),
    );
  }

  private settleInline(): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const pending of all) this.settle(pending);
  }

  private settle(pending: Pending): void {
    try {
      pending.resolve(inline(pending.texts));
    } catch (error) {
      pending.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
