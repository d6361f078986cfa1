export { createEmbedder } from "./create-embedder.js";
export type { EmbedderConfig } from "./create-embedder.js";
export { EmbedderError } from "./embedder.js";
export type { Embedder } from "./embedder.js";
export { cosineSimilarity } from "./l2-normalize.js";
