import { ExactIndex } from "./exact-index.js";
import { UsearchIndex } from "./usearch-index.js";
import type { HnswOptions } from "./usearch-index.js";
import type { VectorIndex } from "./vector-index.js";

export type VectorIndexConfig = ({ kind: "hnsw" } & HnswOptions) | { kind: "exact"; dimensions: number };

export function createVectorIndex(config: VectorIndexConfig): VectorIndex {
  switch (config.kind) {
    case "hnsw":
      return new UsearchIndex(config);
    case "exact":
      return new ExactIndex(config.dimensions);
  }
}
