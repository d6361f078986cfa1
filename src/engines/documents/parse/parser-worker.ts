// Thread body of the parser pool: one uploaded file at a time, off the thread that answers
// requests. The pool bounds it from outside (a deadline, then terminate; a heap limit).
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../../platform/util/thread-priority.js";
import { parseByFormat } from "./parse-by-format.js";
import type { ParseReply, ParseRequest, ParserWorkerData } from "./parser-messages.js";

const port = parentPort;
if (port === null) throw new Error("parser-worker must run in a worker thread");
lowerThreadPriority((workerData as ParserWorkerData | undefined)?.nice ?? 0);

port.on("message", (request: ParseRequest) => {
  port.postMessage({ id: request.id, started: true } satisfies ParseReply);
  parseByFormat(request.format, request.bytes, request.fileName).then(
    (document) => port.postMessage({ id: request.id, ok: true, document } satisfies ParseReply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies ParseReply),
  );
});
