export { chunkDocument, resolveChunkOptions, DEFAULT_MAX_TOKENS, DEFAULT_OVERLAP_TOKENS } from "./chunk-document.js";
export { chunkMemory, memoryToDocument, renderPair } from "./chunk-memory.js";
export type { MemoryContent, UserAssistantPair } from "./chunk-memory.js";
export { splitLongText } from "./split-long-text.js";
export { wordPieceEstimate } from "./token-spans.js";
export type * from "./chunk-types.js";
