import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * wink-nlp-utils' English stop-word list (153 words), plus the contraction pieces wink's tokenizer
 * emits ("n't", "'s", ...), which carry no topic.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...(require("wink-nlp-utils/src/dictionaries/stop_words.json") as string[]),
  "n't",
  "'s",
  "'re",
  "'ve",
  "'ll",
  "'d",
  "'m",
]);
