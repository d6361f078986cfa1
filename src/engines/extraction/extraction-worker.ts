// Worker thread body of the extraction pool: entity extraction (wink-nlp, compromise) off the
// thread that answers requests. The lexicons load on the first text.
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../platform/util/thread-priority.js";
import { extractEntities } from "./extract-entities.js";
import type { ExtractionReply, ExtractionRequest, ExtractionWorkerData } from "./extraction-messages.js";

const port = parentPort;
if (port === null) throw new Error("extraction-worker must run in a worker thread");
lowerThreadPriority((workerData as ExtractionWorkerData | undefined)?.nice ?? 0);

port.on("message", (request: ExtractionRequest) => {
  let reply: ExtractionReply;
  try {
    reply = { type: "result", jobId: request.jobId, extractions: request.texts.map((text) => extractEntities(text, request.context)) };
  } catch (error) {
    reply = { type: "error", jobId: request.jobId, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
