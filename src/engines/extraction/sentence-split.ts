import type { Span } from "./mention.js";

// A plain splitter for callers that pass bare mentions without wink's sentence spans.
// Splits after . ! ? followed by whitespace, and at blank or bulleted lines.

export function splitSentences(text: string): Span[] {
  const spans: Span[] = [];
  const boundary = /[.!?]+(?=\s)|\n\s*\n|\n(?=\s*[-*•]\s)/g;
  let start = 0;
  for (const match of text.matchAll(boundary)) {
    const end = match.index + match[0].length;
    if (text.slice(start, end).trim().length > 0) spans.push({ start, end });
    start = end;
  }
  if (text.slice(start).trim().length > 0) spans.push({ start, end: text.length });
  return spans;
}
