// Thread body of a graph-area query worker: the Cypher engine and the cached collection graphs
// live here, so a slow or oversized query never blocks the main thread's event loop, and the
// worker's heap limit (resourceLimits) bounds what one query can take.
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { getHeapStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
import type { WorkerReply, WorkerRequest } from "./worker-messages.js";
import { WorkerGraphs } from "./worker-graphs.js";

// Collections cached per worker; beyond it the least recently used graphs are dropped.
const CACHED_COLLECTIONS = 64;

const port = parentPort;
if (port === null) throw new Error("query-worker must run in a worker thread");

// On Linux a thread has its own nice value: a busy query worker yields the CPU to the event-loop
// thread, so health checks and other requests stay fast on a machine with few cores. Elsewhere
// (no /proc/thread-self) the worker keeps the default priority.
const WORKER_NICE = 10;
try {
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE);
} catch {
  // Not Linux, or not permitted: run at normal priority.
}

const heapUse = (): number => {
  const s = getHeapStatistics();
  return s.used_heap_size / s.heap_size_limit;
};
const graphs = new WorkerGraphs(CACHED_COLLECTIONS, heapUse);

port.on("message", (req: WorkerRequest) => {
  const reply = graphs.handle(req);
  if (reply !== null) port.postMessage(reply);
});
port.postMessage({ type: "ready" } satisfies WorkerReply);
