import type { OpenAIEmbedderConfig } from "./openai-embedder.js";

/** What the embeddings thread is started with: the endpoint's settings, without injected functions. */
export type EndpointWorkerData = Omit<OpenAIEmbedderConfig, "fetch" | "sleep">;

/** Texts to embed. */
export interface EndpointRequest {
  readonly id: number;
  readonly texts: string[];
}

/** Their vectors (transferred), or the EmbedderError's message and whether it is retryable. */
export type EndpointReply =
  { readonly id: number; readonly vectors: Float32Array[] } | { readonly id: number; readonly message: string; readonly retryable: boolean };
