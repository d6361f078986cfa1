import type { Transferable, Worker } from "node:worker_threads";
import { spawnModuleWorker } from "../../platform/util/module-worker.js";
import type { HnswReply, HnswRequest, HnswResults } from "./hnsw-messages.js";
import { checkVector, VectorIndexError } from "./vector-index.js";

type Op = HnswRequest["op"];
type Body<O extends Op> = Omit<Extract<HnswRequest, { op: O }>, "id" | "op">;

interface Pending {
  resolve(result: HnswResults[Op]): void;
  reject(error: Error): void;
}

/** A failed add: `stored` are its keys the index holds anyway (a bulk add can fail part way). */
class HnswAddError extends VectorIndexError {
  constructor(
    message: string,
    readonly stored: readonly number[],
  ) {
    super(message);
  }
}

/**
 * The thread that holds the in-process HNSW indexes (usearch), so that inserting vectors (about
 * 0.3 ms each at 512 dimensions, a fifth of the request thread when ingestion was not waiting on
 * its embedder) and searching run beside the thread that answers requests. Requests are answered
 * in the order they were posted: a search sees every add posted before it. Started on first use;
 * should it die, every pending request fails and `onLost` is told (the indexes it held are gone).
 */
export class HnswThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextIndex = 1;

  constructor(private readonly onLost: () => void = () => undefined) {}

  /** A new, empty index on the thread. */
  async create(dimensions: number): Promise<ThreadedHnsw> {
    const index = this.nextIndex++;
    await this.request("create", { index, dimensions });
    return new ThreadedHnsw(this, index, dimensions);
  }

  /**
   * An index read from a file written by `save` (checked as UsearchIndex.load checks it). A file
   * saved without its key list is refused: the caller rebuilds from the table.
   */
  async load(dimensions: number, path: string): Promise<ThreadedHnsw> {
    const index = await this.create(dimensions);
    try {
      const { keys } = await this.request("load", { index: index.id, path });
      if (keys === null) throw new VectorIndexError(`index file ${path} has no key list`);
      index.adopt(keys);
      return index;
    } catch (error) {
      index.dispose();
      throw error;
    }
  }

  request<O extends Op>(op: O, body: Body<O>, transfer: readonly Transferable[] = []): Promise<HnswResults[O]> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<HnswResults[O]>((resolve, reject) => {
      // Each op's reply carries that op's result (hnsw-worker.ts).
      this.pending.set(id, { resolve: (result) => resolve(result as HnswResults[O]), reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ ...body, op, id }, [...transfer]);
    });
  }

  /** Ends the thread; whatever is pending fails now (a later request starts a new thread). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failPending();
    await worker?.terminate();
  }

  private failPending(): void {
    const lost = [...this.pending.values()];
    this.pending.clear();
    for (const p of lost) p.reject(new VectorIndexError("the HNSW thread ended"));
  }

  private start(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = spawnModuleWorker(import.meta.url, "hnsw-worker");
    worker.unref();
    worker.on("message", (reply: HnswReply) => this.settle(reply));
    worker.on("error", () => undefined);
    worker.on("exit", () => {
      // Not closed by its owner: it died, and the indexes it held with it.
      if (this.worker !== worker) return;
      this.worker = null;
      this.failPending();
      this.onLost();
    });
    this.worker = worker;
    return worker;
  }

  private settle(reply: HnswReply): void {
    const p = this.pending.get(reply.id);
    if (p === undefined) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (reply.ok) p.resolve(reply.result);
    else if (reply.stored !== undefined) p.reject(new HnswAddError(reply.message, Array.from(reply.stored)));
    else p.reject(new VectorIndexError(reply.message));
  }
}

/**
 * One index on the HNSW thread. Its keys are mirrored here, updated as each change is posted,
 * so `size`, `has` and `keys` answer at once (usearch cannot list keys anyway); searches and
 * adds are answered by the thread.
 */
export class ThreadedHnsw {
  private readonly keySet = new Set<number>();
  /** Vectors posted to the thread and not yet added. */
  private adding = 0;

  constructor(
    private readonly thread: HnswThread,
    readonly id: number,
    readonly dimensions: number,
  ) {}

  size(): number {
    return this.keySet.size;
  }

  has(key: number): boolean {
    return this.keySet.has(key);
  }

  /** The keys of a loaded file. */
  adopt(keys: Float64Array): void {
    for (const key of keys) this.keySet.add(key);
  }

  keys(): number[] {
    return [...this.keySet];
  }

  /** Always: the keys are mirrored here (a file without its key list is not loaded). */
  knowsKeys(): true {
    return true;
  }

  /** The keys in (after, upTo], unordered. */
  keysBetween(after: number, upTo: number): number[] {
    const out: number[] = [];
    for (const key of this.keySet) if (key > after && key <= upTo) out.push(key);
    return out;
  }

  /** Adds (or replaces) vectors; `threads` 0 uses every core. Resolves once the thread holds them. */
  async addMany(keys: readonly number[], vectors: readonly Float32Array[], threads: number): Promise<void> {
    if (keys.length !== vectors.length) throw new VectorIndexError("keys and vectors differ in length");
    if (keys.length === 0) return;
    const flat = new Float32Array(vectors.length * this.dimensions);
    vectors.forEach((v, i) => {
      checkVector(v, this.dimensions);
      flat.set(v, i * this.dimensions);
    });
    const sent = Float64Array.from(keys);
    for (const key of keys) this.keySet.add(key);
    this.adding += keys.length;
    try {
      await this.thread.request("add", { index: this.id, keys: sent, flat, threads }, [flat.buffer]);
    } catch (error) {
      const stored = new Set(error instanceof HnswAddError ? error.stored : []);
      for (const key of keys) if (!stored.has(key)) this.keySet.delete(key);
      throw error;
    } finally {
      this.adding -= keys.length;
    }
  }

  /** Vectors posted and not yet added: how far the thread is behind. */
  backlog(): number {
    return this.adding;
  }

  /** Returns whether the key was present; the thread drops it before anything posted later. */
  remove(key: number): boolean {
    if (!this.keySet.delete(key)) return false;
    this.thread.request("remove", { index: this.id, keys: Float64Array.of(key) }).catch(() => undefined);
    return true;
  }

  /** Best `k` matches, best first, with their cosine similarity. */
  async search(vector: Float32Array, k: number): Promise<Array<{ key: number; score: number }>> {
    checkVector(vector, this.dimensions);
    if (k <= 0 || this.keySet.size === 0) return [];
    const found = await this.thread.request("search", { index: this.id, vector, k });
    return Array.from(found.keys, (key, i) => ({ key, score: found.scores[i] ?? 0 }));
  }

  /** Writes the index and its key list (UsearchIndex.save). */
  async save(path: string): Promise<void> {
    await this.thread.request("save", { index: this.id, path });
  }

  /** Frees the index on the thread (replaced by a rebuild, or its database dropped). */
  dispose(): void {
    this.thread.request("drop", { index: this.id }).catch(() => undefined);
  }
}
