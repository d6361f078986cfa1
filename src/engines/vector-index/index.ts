export { createVectorIndex } from "./create-vector-index.js";
export type { VectorIndexConfig } from "./create-vector-index.js";
export { UsearchIndex } from "./usearch-index.js";
export { VectorIndexError } from "./vector-index.js";
export type { VectorIndex } from "./vector-index.js";
