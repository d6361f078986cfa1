// Worker thread body of the threaded OpenAI-compatible embedder: the HTTP exchange off the request thread.
import { parentPort, workerData } from "node:worker_threads";
import { EmbedderError } from "./embedder.js";
import { createOpenAIEmbedder } from "./openai-embedder.js";
import type { EndpointReply, EndpointRequest, EndpointWorkerData } from "./openai-thread-messages.js";

const port = parentPort;
if (port === null) throw new Error("openai-worker must run in a worker thread");
const embedder = createOpenAIEmbedder(workerData as EndpointWorkerData);

port.on("message", (request: EndpointRequest) => {
  embedder.embed(request.texts).then(
    (vectors) => {
      const reply: EndpointReply = { id: request.id, vectors };
      port.postMessage(reply, [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))]);
    },
    (error: unknown) => {
      const reply: EndpointReply = {
        id: request.id,
        message: error instanceof Error ? error.message : String(error),
        retryable: error instanceof EmbedderError && error.retryable,
      };
      port.postMessage(reply);
    },
  );
});
