import { getDocumentProxy } from "unpdf";
import { buildDocument, titleFromFileName } from "./build-document.js";
import type { DraftBlock, ParsedDocument } from "./parsed-document.js";

interface PositionedText {
  str: string;
  x: number;
  y: number;
  height: number;
  hasEOL: boolean;
}

interface Line {
  text: string;
  y: number;
  height: number;
}

function isTextItem(item: object): item is { str: string; transform: number[]; height: number; hasEOL: boolean } {
  return "str" in item && "transform" in item;
}

/** Groups pdf.js text items into visual lines (same baseline, or an explicit end-of-line). */
function toLines(items: PositionedText[]): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const item of items) {
    const sameLine = current !== undefined && Math.abs(current.y - item.y) < Math.max(2, item.height * 0.5);
    if (current === undefined || !sameLine) {
      current = { text: "", y: item.y, height: item.height };
      lines.push(current);
    }
    current.text += item.str;
    current.height = Math.max(current.height, item.height);
    if (item.hasEOL) current = undefined;
  }
  return lines.filter((l) => l.text.trim().length > 0);
}

/**
 * Lines to paragraphs: a vertical gap clearly larger than the line height starts a new paragraph.
 * PDFs carry no paragraph markup, so this layout rule is the best signal available.
 */
function toParagraphs(lines: Line[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let previous: Line | undefined;
  for (const line of lines) {
    const gap = previous === undefined ? 0 : Math.abs(previous.y - line.y);
    const lineHeight = Math.max(line.height, previous?.height ?? 0, 1);
    if (previous !== undefined && gap > lineHeight * 1.6 && current.length > 0) {
      paragraphs.push(current.join("\n"));
      current = [];
    }
    current.push(line.text.trim());
    previous = line;
  }
  if (current.length > 0) paragraphs.push(current.join("\n"));
  return paragraphs;
}

export async function parsePdf(bytes: Uint8Array, fileName: string): Promise<ParsedDocument> {
  // pdf.js detaches the buffer it is given; copy so the caller's bytes stay usable.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, verbosity: 0 });
  try {
    const blocks: DraftBlock[] = [];
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      const page = await pdf.getPage(pageNumber);
      const content = await page.getTextContent();
      const items: PositionedText[] = [];
      for (const item of content.items) {
        if (!isTextItem(item)) continue;
        const x: unknown = item.transform[4];
        const y: unknown = item.transform[5];
        items.push({ str: item.str, x: typeof x === "number" ? x : 0, y: typeof y === "number" ? y : 0, height: item.height, hasEOL: item.hasEOL });
      }
      for (const paragraph of toParagraphs(toLines(items))) {
        blocks.push({ kind: "paragraph", text: paragraph, sectionPath: [], page: pageNumber });
      }
      page.cleanup();
    }
    const meta = await pdf.getMetadata().catch(() => undefined);
    const info: { Title?: unknown } | undefined = meta?.info;
    const infoTitle = typeof info?.Title === "string" ? info.Title.trim() : "";
    return buildDocument({
      format: "pdf",
      title: infoTitle.length > 0 ? infoTitle : titleFromFileName(fileName),
      blocks,
      pageCount: pdf.numPages,
      metadata: { pageCount: pdf.numPages },
    });
  } finally {
    await pdf.destroy();
  }
}
