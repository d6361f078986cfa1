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
