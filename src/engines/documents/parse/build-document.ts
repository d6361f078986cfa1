import { BLOCK_SEPARATOR } from "./parsed-document.js";
import type { Block, DraftBlock, ParsedDocument, SourceFormat } from "./parsed-document.js";

export interface DocumentDraft {
  format: SourceFormat;
  title: string;
  blocks: DraftBlock[];
  pageCount?: number;
  metadata?: ParsedDocument["metadata"];
}

/**
 * Assigns offsets and joins block texts into the document text. Blocks whose text is blank are
 * dropped so that no chunk is ever made of whitespace alone.
 */
export function buildDocument(draft: DocumentDraft): ParsedDocument {
  const blocks: Block[] = [];
  let cursor = 0;
  const parts: string[] = [];
  for (const draftBlock of draft.blocks) {
    const text = draftBlock.text.trim();
    if (text.length === 0) continue;
    if (parts.length > 0) cursor += BLOCK_SEPARATOR.length;
    blocks.push({ ...draftBlock, text, start: cursor, end: cursor + text.length });
    parts.push(text);
    cursor += text.length;
  }
  const document: ParsedDocument = {
    format: draft.format,
    title: draft.title.trim(),
    text: parts.join(BLOCK_SEPARATOR),
    blocks,
    metadata: draft.metadata ?? {},
  };
  if (draft.pageCount !== undefined) document.pageCount = draft.pageCount;
  return document;
}

/** First non-empty line of a text, cut to a readable length; used when a format has no title. */
export function titleFromText(text: string, fallback: string): string {
  const line =
    text
      .split("\n")
      .find((l) => l.trim().length > 0)
      ?.trim() ?? "";
  if (line.length === 0) return fallback;
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** File name without directories and extension. */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const dot = base.lastIndexOf(".");
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem.length > 0 ? stem : base;
}
