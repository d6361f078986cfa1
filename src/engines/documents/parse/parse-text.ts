import { buildDocument, titleFromFileName, titleFromText } from "./build-document.js";
import type { DraftBlock, ParsedDocument, SourceFormat } from "./parsed-document.js";

/** Splits plain text into paragraphs at blank lines; single newlines stay inside a paragraph. */
function paragraphsOf(text: string): string[] {
  return text
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

export function textToBlocks(text: string, base: Partial<Pick<DraftBlock, "sectionPath" | "unit">> = {}): DraftBlock[] {
  return paragraphsOf(text).map((p) => ({
    kind: "paragraph",
    text: p,
    sectionPath: base.sectionPath ?? [],
    ...(base.unit === undefined ? {} : { unit: base.unit }),
  }));
}

export function parseText(text: string, fileName: string, format: SourceFormat = "txt"): ParsedDocument {
  const blocks = textToBlocks(text);
  // A text file's first line is as often a sentence as a title, so the file name is the safer title.
  const title = fileName.length > 0 ? titleFromFileName(fileName) : titleFromText(blocks[0]?.text ?? "", "Untitled");
  return buildDocument({ format, title, blocks });
}
