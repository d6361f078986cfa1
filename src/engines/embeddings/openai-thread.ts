import type { Worker } from "node:worker_threads";
import { spawnModuleWorker } from "../../platform/util/module-worker.js";
import { EmbedderError } from "./embedder.js";
import type { Embedder } from "./embedder.js";
import { checkOpenAIConfig, type OpenAIEmbedderConfig } from "./openai-embedder.js";
import type { EndpointReply, EndpointRequest, EndpointWorkerData } from "./openai-thread-messages.js";

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(error: EmbedderError): void;
}

/**
 * The OpenAI-compatible embedder with its requests made in a worker thread: encoding the texts,
 * the HTTP exchange and decoding the vectors (a tenth of the request thread while items were made
 * searchable with a fast endpoint) run beside the thread that answers requests; the vectors come
 * back as transferred buffers. The worker starts on first use and again after it dies: the calls
 * it had not answered fail as retryable (their jobs try again), never silently.
 */
class ThreadedOpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly config: EndpointWorkerData) {
    checkOpenAIConfig(config);
    this.id = `openai:${config.model}:${config.dimensions}`;
    this.dimensions = config.dimensions;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (this.closed) return Promise.reject(new EmbedderError("embedder is closed"));
    if (texts.length === 0) return Promise.resolve([]);
    let worker: Worker;
    try {
      worker = this.worker ?? this.spawn();
    } catch (error) {
      return Promise.reject(new EmbedderError(`embeddings thread failed to start: ${error instanceof Error ? error.message : String(error)}`, true));
    }
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      // While it has work the worker keeps the process alive; idle, it does not.
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts } satisfies EndpointRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.failAll(new EmbedderError("request aborted: embedder closed"));
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = spawnModuleWorker(import.meta.url, "openai-worker", this.config);
    worker.on("message", (reply: EndpointReply) => this.answer(reply));
    const lost = (error?: Error): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(new EmbedderError(`embeddings thread stopped${error ? `: ${error.message}` : ""}`, true));
    };
    worker.on("error", lost);
    worker.on("exit", () => lost());
    this.worker = worker;
    return worker;
  }

  private answer(reply: EndpointReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ("vectors" in reply) pending.resolve(reply.vectors);
    else pending.reject(new EmbedderError(reply.message, reply.retryable));
  }

  private failAll(error: EmbedderError): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const pending of all) pending.reject(error);
  }
}

/** The embedder of `config` making its requests in a worker thread (the config crosses to it, so it holds no functions). */
export function createThreadedOpenAIEmbedder(config: EndpointWorkerData): Embedder {
  return new ThreadedOpenAIEmbedder(config);
}

/** Whether a config can cross to a thread: injected functions (tests' fetch, sleep) cannot. */
export const threadable = (config: OpenAIEmbedderConfig): config is EndpointWorkerData => config.fetch === undefined && config.sleep === undefined;
