import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// wink-nlp-utils ships no type declarations; only its porter2 stemmer is used.
const utils = require("wink-nlp-utils") as { string: { stem(word: string): string } };

/** Word forms repeat heavily across a corpus; a bounded memo makes stemming nearly free. */
const MEMO_LIMIT = 200_000;
const memo = new Map<string, string>();

/** Porter2 (Snowball English) stem of a lowercase word. */
export function stem(word: string): string {
  let stemmed = memo.get(word);
  if (stemmed === undefined) {
    stemmed = utils.string.stem(word);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(word, stemmed);
  }
  return stemmed;
}
