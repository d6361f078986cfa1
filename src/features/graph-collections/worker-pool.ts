import type { Worker } from "node:worker_threads";
import { spawnModuleWorker } from "../../platform/util/module-worker.js";
import type { WorkerFailure, WorkerReply, WorkerRequest } from "./worker-messages.js";

export interface QueryWorkerPoolOptions {
  /** Worker threads; each holds its own cache of collection graphs. */
  readonly size: number;
  /** Heap cap of one worker (V8 old generation); past it the worker is terminated and replaced. */
  readonly memoryMb: number;
  /** Workers one organization may occupy at once; the others stay free for everyone else. */
  readonly maxPerOrg: number;
  /** Called when a worker dies unexpectedly (not by a hard deadline or an out-of-memory kill). */
  readonly onCrash?: (err: Error) => void;
}

/** A worker died (hard deadline, out of memory, crash) while serving a request. */
export class WorkerLost extends Error {
  constructor(readonly failure: WorkerFailure) {
    super(failure.message);
    this.name = "WorkerLost";
  }
}

type Call = Extract<WorkerRequest, { id: number }>;
type Note = Exclude<WorkerRequest, { id: number }>;
type Body<T> = T extends unknown ? Omit<T, "id"> : never;

interface Pending {
  readonly id: number;
  readonly resolve: (reply: WorkerReply) => void;
  readonly reject: (err: Error) => void;
  timer: NodeJS.Timeout | null;
}

class Slot {
  ready = false;
  dead = false;
  orgId: string | null = null;
  /** Collections this worker loaded (a hint for dispatch; the worker checks heads itself). */
  readonly keys = new Set<string>();
  pending: Pending | null = null;
  /** Why the pool is terminating this worker; null for an unexpected death. */
  killedFor: WorkerFailure | null = null;
  constructor(readonly worker: Worker) {}
}

interface Waiter {
  readonly orgId: string;
  readonly key: string;
  readonly resolve: (lease: WorkerLease) => void;
  readonly reject: (err: Error) => void;
}

/** One request's exclusive use of a worker, from acquire to release. */
export class WorkerLease {
  private released = false;

  constructor(
    private readonly pool: QueryWorkerPool,
    private readonly slot: Slot,
  ) {}

  /**
   * Sends a request and waits for its reply. With a hard deadline, a worker that has not answered
   * by then (a query stuck where the engine cannot check its budget, such as a pathological regular
   * expression) is terminated and replaced, and the call fails with a timeout.
   */
  call(body: Body<Call>, hardDeadlineMs: number | null = null): Promise<WorkerReply> {
    return this.pool.send(this.slot, body, hardDeadlineMs);
  }

  /** Marks `key` as loaded in this worker, so later requests for it prefer this worker. */
  remember(key: string): void {
    this.slot.keys.add(key);
  }

  /** Sends a request that has no reply (load pages, settle); ignored by a dead worker. */
  post(note: Note): void {
    if (this.slot.dead) return;
    this.slot.worker.postMessage(note);
    if (note.type === "settle" && note.head === null) this.slot.keys.delete(note.key);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.pool.release(this.slot);
  }
}

/**
 * Query workers (node:worker_threads), started on first use and replaced when one dies. Each
 * request leases one worker for its whole run (including its store I/O), so a worker serves one
 * query at a time. Waiting requests are served in arrival order, except that an organization never
 * holds more than `maxPerOrg` workers: with two or more workers one organization's slow queries
 * always leave a worker to the others.
 */
export class QueryWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly waiters: Waiter[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: QueryWorkerPoolOptions) {}

  acquire(orgId: string, key: string): Promise<WorkerLease> {
    if (this.closed) return Promise.reject(new Error("query workers are closed"));
    return new Promise((resolve, reject) => {
      this.waiters.push({ orgId, key, resolve, reject });
      this.dispatch();
    });
  }

  /** Drops cached graphs whose key starts with `keyPrefix` in every worker. */
  forget(keyPrefix: string): void {
    for (const slot of this.slots) {
      slot.worker.postMessage({ type: "forget", keyPrefix } satisfies WorkerRequest);
      for (const key of slot.keys) if (key.startsWith(keyPrefix)) slot.keys.delete(key);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error("query workers are closed"));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  send(slot: Slot, body: Body<Call>, hardDeadlineMs: number | null): Promise<WorkerReply> {
    if (slot.dead) return Promise.reject(new WorkerLost(slot.killedFor ?? { kind: "internal", message: "graph query worker exited" }));
    if (slot.pending !== null) return Promise.reject(new Error("query worker already has a request in flight"));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const pending: Pending = { id, resolve, reject, timer: null };
      if (hardDeadlineMs !== null) {
        pending.timer = setTimeout(() => {
          slot.killedFor = { kind: "timeout", message: `query exceeded its time budget (hard deadline of ${hardDeadlineMs} ms); its worker was stopped` };
          void slot.worker.terminate();
        }, hardDeadlineMs);
      }
      slot.pending = pending;
      slot.worker.postMessage({ ...body, id });
    });
  }

  release(slot: Slot): void {
    slot.orgId = null;
    this.dispatch();
  }

  private dispatch(): void {
    if (this.closed) return;
    for (let i = 0; i < this.waiters.length; i++) {
      const waiter = this.waiters[i] as Waiter;
      const held = this.slots.filter((s) => s.orgId === waiter.orgId).length;
      if (held >= Math.max(1, this.options.maxPerOrg)) continue;
      const free = this.slots.filter((s) => s.ready && s.orgId === null);
      const slot = free.find((s) => s.keys.has(waiter.key)) ?? free[0];
      if (slot === undefined) {
        if (this.slots.length < this.options.size) this.spawn();
        return;
      }
      this.waiters.splice(i--, 1);
      slot.orgId = waiter.orgId;
      waiter.resolve(new WorkerLease(this, slot));
    }
  }

  private spawn(): void {
    const slot = new Slot(startWorker(this.options.memoryMb));
    slot.worker.unref();
    this.slots.push(slot);
    slot.worker.on("message", (reply: WorkerReply) => {
      if (reply.type === "ready") {
        slot.ready = true;
        this.dispatch();
        return;
      }
      const pending = slot.pending;
      if (pending === null || pending.id !== reply.id) return;
      if (pending.timer !== null) clearTimeout(pending.timer);
      slot.pending = null;
      pending.resolve(reply);
    });
    slot.worker.on("error", (err: Error & { code?: string }) => {
      if (err.code === "ERR_WORKER_OUT_OF_MEMORY") {
        slot.killedFor ??= { kind: "too-large", message: "query exceeded the memory budget of its worker and was stopped" };
      } else if (slot.killedFor === null) {
        slot.killedFor = { kind: "internal", message: `graph query worker failed: ${err.message}` };
        this.options.onCrash?.(err);
      }
    });
    slot.worker.on("exit", () => this.remove(slot));
  }

  private remove(slot: Slot): void {
    slot.dead = true;
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    const pending = slot.pending;
    slot.pending = null;
    if (pending !== null) {
      if (pending.timer !== null) clearTimeout(pending.timer);
      pending.reject(new WorkerLost(slot.killedFor ?? { kind: "internal", message: "graph query worker exited" }));
    }
    // A worker that never became ready fails its waiters instead of respawning in a loop.
    if (!slot.ready && slot.killedFor?.kind === "internal") {
      for (const w of this.waiters.splice(0)) w.reject(new Error(slot.killedFor.message));
      return;
    }
    this.dispatch();
  }
}

/** Each worker's heap (V8 old generation) is capped at `memoryMb`; past it the worker is stopped. */
function startWorker(memoryMb: number): Worker {
  return spawnModuleWorker(import.meta.url, "query-worker", undefined, { maxOldGenerationSizeMb: memoryMb, stackSizeMb: 4 });
}
