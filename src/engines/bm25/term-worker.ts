// Worker thread body of TermCounter: BM25 tokenization of ingested chunks off the request thread.
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../platform/util/thread-priority.js";
import { termFrequencies } from "./tokenize.js";
import type { TermReply, TermRequest, TermWorkerData } from "./term-messages.js";

const port = parentPort;
if (port === null) throw new Error("term-worker must run in a worker thread");
lowerThreadPriority((workerData as TermWorkerData | undefined)?.nice ?? 0);

port.on("message", (request: TermRequest) => {
  let reply: TermReply;
  try {
    reply = {
      id: request.id,
      counts: request.texts.map((text) => {
        const counts = termFrequencies(text);
        return [[...counts.keys()], [...counts.values()]] as const;
      }),
    };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
