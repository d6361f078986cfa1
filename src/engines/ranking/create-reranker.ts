import type { RerankSettings } from "../../platform/config.js";
import { chatModelConfig } from "../extraction/chat-client.js";
import { rerankWithEndpoint } from "./rerank-endpoint.js";
import { loadTransformersReranker, type LoadedReranker } from "./transformers-reranker.js";

export interface Reranker extends LoadedReranker {
  /** How many of a query's first candidates it scores. */
  readonly depth: number;
}

// An endpoint (a GPU server, or a hosted API) scores 50 candidates in one call; a cross-encoder
// on this process's CPU gets 30, since its cost grows with every pair and takes query CPU.
const ENDPOINT_DEPTH = 50;
const IN_PROCESS_DEPTH = 30;

export async function createReranker(settings: RerankSettings, timeoutMs: number): Promise<Reranker> {
  if (settings.provider === "transformers") {
    const loaded = await loadTransformersReranker({ model: settings.model, ...(settings.localModelPath ? { localModelPath: settings.localModelPath } : {}) });
    return { depth: IN_PROCESS_DEPTH, score: (question, passages) => loaded.score(question, passages), close: () => loaded.close() };
  }
  const endpoint = chatModelConfig(settings, timeoutMs);
  return { depth: ENDPOINT_DEPTH, score: (question, passages) => rerankWithEndpoint(endpoint, question, passages), close: () => Promise.resolve() };
}
