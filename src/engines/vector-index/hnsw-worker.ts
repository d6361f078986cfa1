import { parentPort } from "node:worker_threads";
import { UsearchIndex } from "./usearch-index.js";
import type { HnswReply, HnswRequest, HnswResults } from "./hnsw-messages.js";

/**
 * The HNSW thread: holds the in-process vector indexes (usearch) and answers requests in the
 * order they came, so a search sees every add posted before it.
 */
const indexes = new Map<number, UsearchIndex>();
const port = parentPort;
if (port === null) throw new Error("hnsw-worker runs as a worker thread");

const of = (index: number): UsearchIndex => {
  const found = indexes.get(index);
  if (found === undefined) throw new Error(`no index ${index} on the HNSW thread`);
  return found;
};

function run(req: HnswRequest): HnswResults[keyof HnswResults] {
  switch (req.op) {
    case "create":
      indexes.set(req.index, new UsearchIndex({ dimensions: req.dimensions }));
      return null;
    case "load": {
      const index = of(req.index);
      index.load(req.path);
      return { keys: index.knowsKeys() ? Float64Array.from(index.keys()) : null };
    }
    case "add": {
      const index = of(req.index);
      const d = index.dimensions;
      const vectors = Array.from({ length: req.keys.length }, (_, i) => req.flat.subarray(i * d, (i + 1) * d));
      index.addMany(Array.from(req.keys), vectors, req.threads);
      return null;
    }
    case "remove":
      for (const key of req.keys) of(req.index).remove(key);
      return null;
    case "search": {
      const found = of(req.index).search(req.vector, req.k);
      return { keys: Float64Array.from(found, (m) => Number(m.key)), scores: Float64Array.from(found, (m) => m.score) };
    }
    case "save":
      of(req.index).save(req.path);
      return null;
    case "drop":
      indexes.delete(req.index);
      return null;
  }
}

port.on("message", (req: HnswRequest) => {
  let reply: HnswReply;
  try {
    reply = { id: req.id, ok: true, result: run(req) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const index = indexes.get(req.index);
    const stored = req.op === "add" && index !== undefined ? req.keys.filter((key) => index.has(key)) : undefined;
    reply = { id: req.id, ok: false, message, ...(stored === undefined ? {} : { stored }) };
  }
  port.postMessage(reply);
});
