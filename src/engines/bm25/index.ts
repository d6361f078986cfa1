export { tokenize, termFrequencies } from "./tokenize.js";
export { stem } from "./stem.js";
export { STOP_WORDS } from "./stop-words.js";
export { bm25Score, bm25Idf, DEFAULT_BM25_PARAMS } from "./bm25.js";
export type { Bm25Stats, Bm25Params } from "./bm25.js";
