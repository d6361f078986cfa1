export { createVectorIndex } from "./create-vector-index.js";
export type { VectorIndexConfig } from "./create-vector-index.js";
export { UsearchIndex } from "./usearch-index.js";
export type { HnswOptions } from "./usearch-index.js";
export { ExactIndex } from "./exact-index.js";
export { VectorIndexError, toKey } from "./vector-index.js";
export type { VectorIndex, VectorKey, VectorMatch } from "./vector-index.js";
