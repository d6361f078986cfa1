// Thread body of a graph-area query worker: the Cypher engine and the cached collection graphs
// live here, so a slow or oversized query never blocks the main thread's event loop, and the
// worker's heap limit (resourceLimits) bounds what one query can take.
import { getHeapStatistics } from "node:v8";
import { parentPort } from "node:worker_threads";
import type { WorkerReply, WorkerRequest } from "./worker-messages.js";
import { WorkerGraphs } from "./worker-graphs.js";

// Collections cached per worker; beyond it the least recently used graphs are dropped.
const CACHED_COLLECTIONS = 64;

const port = parentPort;
if (port === null) throw new Error("query-worker must run in a worker thread");

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
