import type { TokenSpanner } from "./chunk-types.js";

/** Longer runs are cut into pieces of this many characters, each counted as a token. */
const MAX_PIECE_CHARS = 12;

/**
 * Default token counter: words, numbers and single punctuation marks, with long runs (identifiers,
 * URLs, base64) cut into pieces. It approximates subword tokenizers from below for English prose
 * (USE-lite and WordPiece models split rare words further), cheaply and deterministically. Pass an
 * exact counter through `ChunkOptions.tokenSpans` when the embedding model's limit is strict.
 */
export const wordPieceEstimate: TokenSpanner = (text) => {
  const spans: Array<[number, number]> = [];
  for (const match of text.matchAll(/[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]/gu)) {
    const start = match.index;
    const end = start + match[0].length;
    for (let s = start; s < end; s += MAX_PIECE_CHARS) spans.push([s, Math.min(end, s + MAX_PIECE_CHARS)]);
  }
  return spans;
};

const WORD = /[\p{L}\p{M}\p{N}_]+/uy;
const SPACE = /\s+/uy;
const OTHER = /[^\s\p{L}\p{M}\p{N}_]/uy;

/**
 * `wordPieceEstimate(text).length` without building the spans: chunking counts the tokens of every
 * block, and the spans and match objects of that count were a fifth of what indexing allocated.
 */
export function wordPieceCount(text: string): number {
  let count = 0;
  let i = 0;
  while (i < text.length) {
    WORD.lastIndex = i;
    if (WORD.test(text)) {
      count += Math.ceil((WORD.lastIndex - i) / MAX_PIECE_CHARS);
      i = WORD.lastIndex;
      continue;
    }
    SPACE.lastIndex = i;
    if (SPACE.test(text)) {
      i = SPACE.lastIndex;
      continue;
    }
    OTHER.lastIndex = i;
    if (OTHER.test(text)) count += 1;
    i = OTHER.lastIndex > i ? OTHER.lastIndex : i + 1;
  }
  return count;
}
