import mammoth from "mammoth";
import { buildDocument, titleFromFileName } from "./build-document.js";
import type { DraftBlock, ParsedDocument } from "./parsed-document.js";
import { parseSimpleHtml, textContent } from "./simple-html.js";
import type { HtmlElement } from "./simple-html.js";
import { tableRowText } from "./table-text.js";

function elements(node: HtmlElement): HtmlElement[] {
  return node.children.filter((c): c is HtmlElement => typeof c !== "string");
}

function clean(text: string): string {
  return text
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();
}

function listLines(list: HtmlElement, depth: number): string[] {
  const lines: string[] = [];
  let n = 1;
  for (const item of elements(list)) {
    if (item.tag !== "li") continue;
    const own = item.children.filter((c) => typeof c === "string" || (c.tag !== "ul" && c.tag !== "ol"));
    const marker = list.tag === "ol" ? `${n++}.` : "-";
    lines.push(`${"  ".repeat(depth)}${marker} ${clean(own.map(textContent).join(""))}`);
    for (const nested of elements(item)) {
      if (nested.tag === "ul" || nested.tag === "ol") lines.push(...listLines(nested, depth + 1));
    }
  }
  return lines;
}

function tableRows(table: HtmlElement): string[][] {
  const rows: string[][] = [];
  const visit = (node: HtmlElement): void => {
    for (const child of elements(node)) {
      if (child.tag === "tr") {
        rows.push(
          elements(child)
            .filter((c) => c.tag === "td" || c.tag === "th")
            .map((c) => clean(textContent(c))),
        );
      } else if (child.tag === "thead" || child.tag === "tbody" || child.tag === "tfoot") visit(child);
    }
  };
  visit(table);
  return rows;
}

class DocxBlockBuilder {
  readonly blocks: DraftBlock[] = [];
  private path: { level: number; text: string }[] = [];

  visit(node: HtmlElement): void {
    for (const child of elements(node)) {
      const heading = /^h([1-6])$/.exec(child.tag);
      if (heading !== null) {
        const level = Number(heading[1]);
        const text = clean(textContent(child));
        if (text.length === 0) continue;
        this.path = this.path.filter((h) => h.level < level);
        this.path.push({ level, text });
        this.blocks.push({ kind: "heading", level, text, sectionPath: this.sectionPath() });
      } else if (child.tag === "p") {
        this.blocks.push({ kind: "paragraph", text: clean(textContent(child)), sectionPath: this.sectionPath() });
      } else if (child.tag === "ul" || child.tag === "ol") {
        const items = listLines(child, 0);
        this.blocks.push({ kind: "list", ordered: child.tag === "ol", items, text: items.join("\n"), sectionPath: this.sectionPath() });
      } else if (child.tag === "table") {
        // Word tables rarely mark a header row; the first row is the best available guess.
        const [header = [], ...rows] = tableRows(child);
        const text = rows.length > 0 ? rows.map((r) => tableRowText(header, r)).join("\n") : header.join(" | ");
        this.blocks.push({ kind: "table", header, rows, text, sectionPath: this.sectionPath() });
      } else {
        this.visit(child);
      }
    }
  }

  private sectionPath(): string[] {
    return this.path.map((h) => h.text);
  }
}

export async function parseDocx(bytes: Uint8Array, fileName: string): Promise<ParsedDocument> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // externalFileAccess off: a DOCX must never make us read files it links to.
  const result = await mammoth.convertToHtml({ buffer }, { externalFileAccess: false });
  const builder = new DocxBlockBuilder();
  builder.visit(parseSimpleHtml(result.value));
  const firstHeading = builder.blocks.find((b) => b.kind === "heading");
  return buildDocument({
    format: "docx",
    title: firstHeading?.text ?? titleFromFileName(fileName),
    blocks: builder.blocks,
  });
}
