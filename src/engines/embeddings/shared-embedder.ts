import type { EmbeddingConfig } from "../../platform/config.js";
import { createEmbedder } from "./create-embedder.js";
import type { Embedder } from "./embedder.js";

interface Pending {
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (err: unknown) => void;
}

/**
 * The process-wide embedder: created on first use (processes that never embed never load a
 * model), and micro-batching: texts from concurrent callers (many small pipeline jobs) are
 * gathered for a moment into one provider call, which is where the provider's throughput is.
 */
export class SharedEmbedder {
  private embedder: Promise<Embedder> | null = null;
  private queue: Pending[] = [];
  private queued = 0;
  private timer: NodeJS.Timeout | null = null;
  private inFlight = 0;

  constructor(
    private readonly config: EmbeddingConfig,
    /** Told the size of every gathered provider call (the metrics' batch-size histogram). */
    private readonly onBatch: (texts: number) => void = () => undefined,
    /**
     * Texts per provider call at most. An in-process model's cost is per text, so small batches
     * lose nothing; an endpoint's is largely per request (a round trip, and the request thread's
     * share of sending it and reading the answer), so it gets the OpenAI client's own batch.
     */
    private readonly batchSize = config.provider === "openai" ? 64 : 16,
    private readonly lingerMs = 3,
    /**
     * Provider calls running at once; while all are busy, texts keep gathering into the next
     * batch. For the local embedder, two per worker thread: one running and one waiting, so a
     * thread that finishes starts on the next batch at once (its cost is per text, so small
     * batches lose nothing).
     */
    private readonly maxInFlight = config.provider === "local" ? config.workers * 2 : 4,
    /**
     * An endpoint: whatever gathered goes in full batches, and a part batch waits for the linger
     * while other calls run. Spreading texts over the idle calls suits a model whose cost is per
     * text; for an endpoint it made many small requests (bench:ingest with the instant endpoint:
     * 451-593 requests of 8-11 texts for 5,000 chunks, now 108-128).
     */
    private readonly perRequest = config.provider === "openai",
  ) {}

  /** The provider's vector size; loads the provider when needed. */
  async dimensions(): Promise<number> {
    return (await this.provider()).dimensions;
  }

  async id(): Promise<string> {
    return (await this.provider()).id;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ texts, resolve, reject });
      this.queued += texts.length;
      if (this.queued >= this.batchSize && this.inFlight < this.maxInFlight) this.flush();
      else if (this.inFlight < this.maxInFlight) this.linger();
      // else: a running batch's completion flushes what gathered meanwhile
    });
  }

  /**
   * For latency-sensitive callers (queries): straight to the provider, not behind gathering
   * batches, and marked urgent so the provider does not queue it behind ingestion's batches either.
   */
  async embedNow(texts: string[]): Promise<Float32Array[]> {
    return (await this.provider()).embed(texts, { urgent: true });
  }

  /** True once the provider was created (its model threads started, for the local one). */
  get started(): boolean {
    return this.embedder !== null;
  }

  /**
   * Starts the local model's threads now (one query-lane call) rather than on the first query,
   * which otherwise waited seconds for three model loads: a second service process, which runs
   * no ingestion, met that on its first dense queries under load (bench:load). Remote providers
   * are left alone: a call costs a request to them.
   */
  async warmUp(): Promise<void> {
    if (this.config.provider === "local") await this.embedNow(["warm up"]);
  }

  async close(): Promise<void> {
    const current = this.embedder;
    this.embedder = null;
    if (current) await (await current.catch(() => null))?.close();
  }

  private provider(): Promise<Embedder> {
    if (!this.embedder) {
      const pending = createEmbedder(providerConfig(this.config));
      this.embedder = pending;
      // A provider that failed to start is not kept: the next call (a job retry) starts it again.
      pending.catch(() => {
        if (this.embedder === pending) this.embedder = null;
      });
    }
    return this.embedder;
  }

  private linger(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      if (this.inFlight < this.maxInFlight) this.flush();
    }, this.lingerMs);
  }

  /** After a call ended or a batch went: what gathered goes now, or (an endpoint, not a full batch) after the linger. */
  private next(): void {
    if (this.queue.length === 0 || this.inFlight >= this.maxInFlight) return;
    if (!this.perRequest || this.queued >= this.batchSize) this.flush();
    else this.linger();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0) return;
    // Take whole requests up to the batch size (a single large request goes alone), and (an
    // in-process model) spread what gathered over the idle provider slots: one full batch on one
    // worker while the others idle would halve the local embedder's throughput.
    const idleSlots = Math.max(1, this.maxInFlight - this.inFlight);
    const limit = this.perRequest ? this.batchSize : Math.min(this.batchSize, Math.max(1, Math.ceil(this.queued / idleSlots)));
    const batch: Pending[] = [];
    let size = 0;
    while (this.queue.length > 0 && (batch.length === 0 || size + this.queue[0]!.texts.length <= limit)) {
      const next = this.queue.shift()!;
      batch.push(next);
      size += next.texts.length;
    }
    this.queued -= size;
    this.inFlight += 1;
    this.onBatch(size);
    void this.run(batch).finally(() => {
      this.inFlight -= 1;
      this.next();
    });
    // Requests left over go to the remaining idle slots now rather than after the linger (an
    // endpoint: full batches only).
    this.next();
  }

  private async run(batch: Pending[]): Promise<void> {
    try {
      const vectors = await (await this.provider()).embed(batch.flatMap((p) => p.texts));
      let offset = 0;
      for (const p of batch) {
        p.resolve(vectors.slice(offset, offset + p.texts.length));
        offset += p.texts.length;
      }
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}

function providerConfig(config: EmbeddingConfig): Parameters<typeof createEmbedder>[0] {
  switch (config.provider) {
    case "local":
      return { provider: "local", workers: config.workers, queryWorkers: config.queryWorkers, batchNice: config.batchNice, precision: config.precision };
    case "openai":
      return {
        provider: "openai",
        baseUrl: config.baseUrl,
        model: config.model,
        dimensions: config.dimensions,
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      };
    case "transformers":
      return {
        provider: "transformers",
        model: config.model,
        ...(config.localModelPath ? { localModelPath: config.localModelPath } : {}),
        ...(config.dimensions ? { dimensions: config.dimensions } : {}),
      };
  }
}
