export { tokenize, termFrequencies } from "./tokenize.js";
export { STOP_WORDS } from "./stop-words.js";
export { bm25Score, bm25Idf } from "./bm25.js";
export type { Bm25Stats } from "./bm25.js";
