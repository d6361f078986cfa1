import type { Worker } from "node:worker_threads";
import { spawnModuleWorker } from "../../../platform/util/module-worker.js";
import type { FileFormat } from "./detect-format.js";
import type { ParseReply, ParseRequest, ParserWorkerData } from "./parser-messages.js";
import type { ParsedDocument } from "./parsed-document.js";
import { ParseTimeoutError } from "./with-timeout.js";

// How often resident memory is sampled while a file is parsed.
const MEMORY_SAMPLE_MS = 100;

/** A file whose parse needed more memory than a parser worker may hold. */
export class ParseMemoryError extends Error {
  constructor(label: string, memoryMb: number) {
    super(`${label} needed more than ${memoryMb} MB of memory (PARSE_WORKER_MEMORY_MB)`);
    this.name = "ParseMemoryError";
  }
}

/**
 * The pool was closed (shutdown) before the file was parsed: nothing is wrong with the file, so this
 * is not a parse failure; the job fails and is retried by whichever process runs it next.
 */
export class ParserPoolClosed extends Error {
  constructor() {
    super("the parser workers are closed");
    this.name = "ParserPoolClosed";
  }
}

/** Runs one file's parser somewhere bounded; parseFile() calls it when given one. */
export interface IsolatedParser {
  parse(format: FileFormat, bytes: Uint8Array, fileName: string, timeoutMs: number): Promise<ParsedDocument>;
}

export interface ParserPoolOptions {
  /** Worker threads, each parsing one file at a time. */
  readonly size: number;
  /** Heap cap of one worker (V8 old generation); past it the worker is stopped and the file fails. */
  readonly memoryMb: number;
  /** Nice value of the workers' threads (Linux). */
  readonly nice: number;
}

interface Job {
  readonly request: ParseRequest;
  readonly timeoutMs: number;
  resolve(document: ParsedDocument): void;
  reject(error: Error): void;
}

class Slot {
  worker: Worker | null = null;
  current: Job | null = null;
  timer: NodeJS.Timeout | null = null;
  /**
   * The process's resident memory when the worker took the current file (null until it says so: a
   * worker just started is still loading its modules, which is not the file's memory).
   */
  rssAtStart: number | null = null;
  startedAt = 0;
  /** Why the pool is stopping this worker (deadline, heap); null for an unexpected death. */
  failure: Error | null = null;
}

/**
 * Uploaded files are parsed in worker threads, so that a hostile or broken file (a PDF whose
 * streams inflate to gigabytes, a parser caught in a synchronous loop) can neither hold the thread
 * that answers requests nor take the process's memory: a parse past its deadline has its worker
 * terminated (which stops even a synchronous loop), and a worker's heap is capped. Buffers live
 * outside the heap (pdf.js inflates a stream into one), so the process's resident memory is also
 * watched while files are parsed: past twice `memoryMb` of growth per busy worker, the parse that
 * started first is stopped (exact with one worker, the default). A stopped or
 * crashed worker is replaced on the next file. Workers start on first use and never keep the
 * process alive.
 */
export class ParserPool implements IsolatedParser {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private watch: NodeJS.Timeout | null = null;

  constructor(private readonly options: ParserPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.size) }, () => new Slot());
  }

  parse(format: FileFormat, bytes: Uint8Array, fileName: string, timeoutMs: number): Promise<ParsedDocument> {
    if (this.closed) return Promise.reject(new ParserPoolClosed());
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, format, bytes, fileName }, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.watch !== null) clearInterval(this.watch);
    this.watch = null;
    const error = new ParserPoolClosed();
    for (const job of this.queue.splice(0)) job.reject(error);
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker;
        slot.failure = error;
        await worker?.terminate();
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current !== null || this.closed) continue;
      const job = this.queue.shift();
      if (job === undefined) break;
      slot.current = job;
      slot.failure = null;
      slot.rssAtStart = null;
      slot.startedAt = performance.now();
      this.workerOf(slot).postMessage(job.request);
    }
    this.watchMemory();
  }

  /** Samples resident memory while any file is being parsed (see the class comment). */
  private watchMemory(): void {
    const busy = this.slots.filter((s) => s.current !== null);
    if (busy.length === 0 || this.closed) {
      if (this.watch !== null) clearInterval(this.watch);
      this.watch = null;
      return;
    }
    this.watch ??= setInterval(() => {
      const running = this.slots.filter((s): s is Slot & { rssAtStart: number } => s.current !== null && s.failure === null && s.rssAtStart !== null);
      const first = running.reduce<Slot | null>((a, s) => (a === null || s.startedAt < a.startedAt ? s : a), null);
      if (first === null) return;
      const grownMb = (process.memoryUsage.rss() - Math.min(...running.map((s) => s.rssAtStart))) / (1024 * 1024);
      if (grownMb <= 2 * this.options.memoryMb * running.length) return;
      first.failure = new ParseMemoryError(`parsing ${first.current?.request.fileName ?? "a file"}`, this.options.memoryMb);
      void first.worker?.terminate();
    }, MEMORY_SAMPLE_MS);
    this.watch.unref();
  }

  private finish(slot: Slot): Job | null {
    const job = slot.current;
    if (slot.timer !== null) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
    return job;
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker !== null) return slot.worker;
    const worker = spawnModuleWorker(import.meta.url, "parser-worker", { nice: this.options.nice } satisfies ParserWorkerData, {
      maxOldGenerationSizeMb: this.options.memoryMb,
    });
    worker.unref();
    worker.on("message", (reply: ParseReply) => {
      if (slot.current?.request.id !== reply.id) return;
      if ("started" in reply) {
        // The deadline and the memory watch count from here: not the file's wait in the queue,
        // nor a fresh worker's start.
        const job = slot.current;
        slot.rssAtStart = process.memoryUsage.rss();
        slot.timer = setTimeout(() => {
          slot.failure = new ParseTimeoutError(`parsing ${job.request.fileName}`, job.timeoutMs);
          void worker.terminate();
        }, job.timeoutMs);
        return;
      }
      const job = this.finish(slot);
      if (reply.ok) job?.resolve(reply.document);
      else job?.reject(new Error(reply.message));
      this.dispatch();
    });
    worker.on("error", (err: Error & { code?: string }) => {
      if (err.code === "ERR_WORKER_OUT_OF_MEMORY") {
        slot.failure ??= new ParseMemoryError(`parsing ${slot.current?.request.fileName ?? "a file"}`, this.options.memoryMb);
      } else {
        slot.failure ??= new Error(`the parser worker failed: ${err.message}`);
      }
    });
    worker.on("exit", (code) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      const job = this.finish(slot);
      job?.reject(slot.failure ?? new Error(`the parser worker exited with code ${code}`));
      this.dispatch();
    });
    slot.worker = worker;
    return worker;
  }
}
