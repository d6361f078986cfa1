import type { ResolvedChunkOptions } from "./chunk-types.js";

export interface TextWindow {
  start: number;
  end: number;
  tokenCount: number;
}

const SENTENCE_END = /[.!?;:]$/;

/**
 * Cuts `text[start, end)` into windows of at most `maxTokens` tokens; consecutive windows share
 * `overlapTokens` tokens so a sentence cut at a boundary is whole in at least one of them. A window
 * ends at the last line or sentence break in its second half when there is one, so pieces read as
 * whole statements. Offsets are absolute (relative to `text`).
 */
export function splitLongText(text: string, start: number, end: number, options: ResolvedChunkOptions): TextWindow[] {
  const slice = text.slice(start, end);
  const spans = options.tokenSpans(slice);
  const n = spans.length;
  if (n === 0) return [];
  const windows: TextWindow[] = [];
  let i = 0;
  for (;;) {
    let j = Math.min(i + options.maxTokens, n);
    if (j < n) {
      const earliest = i + Math.ceil((j - i) / 2);
      for (let k = j; k > earliest; k--) {
        const prev = spans[k - 1];
        const next = spans[k];
        if (prev === undefined || next === undefined) continue;
        const gap = slice.slice(prev[1], next[0]);
        if (gap.includes("\n") || SENTENCE_END.test(slice.slice(prev[0], prev[1]))) {
          j = k;
          break;
        }
      }
    }
    const first = spans[i];
    const last = spans[j - 1];
    if (first === undefined || last === undefined) break;
    windows.push({ start: start + first[0], end: start + last[1], tokenCount: j - i });
    if (j >= n) break;
    i = Math.max(j - options.overlapTokens, i + 1);
  }
  return windows;
}
