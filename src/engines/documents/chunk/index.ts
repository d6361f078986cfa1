export { chunkDocument } from "./chunk-document.js";
export { chunkMemory } from "./chunk-memory.js";
export { wordPieceEstimate } from "./token-spans.js";
export type * from "./chunk-types.js";
