import { Lexer } from "marked";
import type { Token, Tokens } from "marked";
import { buildDocument, titleFromFileName } from "./build-document.js";
import { inlineText } from "./markdown-inline.js";
import type { DraftBlock, ParsedDocument, SourceFormat } from "./parsed-document.js";
import { tableRowText } from "./table-text.js";

interface Frontmatter {
  body: string;
  title?: string;
}

/** YAML front matter is metadata, not content; only its `title` is used. */
function stripFrontmatter(text: string): Frontmatter {
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(text);
  if (match === null) return { body: text };
  const titleLine = /^title:\s*(.+)$/m.exec(match[1] ?? "");
  const title = titleLine?.[1]?.trim().replace(/^["']|["']$/g, "");
  return { body: text.slice(match[0].length), ...(title ? { title } : {}) };
}

function listLines(list: Tokens.List, depth: number): string[] {
  const lines: string[] = [];
  const start = typeof list.start === "number" ? list.start : 1;
  list.items.forEach((item, i) => {
    const marker = list.ordered ? `${start + i}.` : "-";
    const check = item.task ? (item.checked ? "[x] " : "[ ] ") : "";
    const own: string[] = [];
    const nested: string[] = [];
    for (const child of item.tokens) {
      if (child.type === "list") nested.push(...listLines(child as Tokens.List, depth + 1));
      else if (child.type !== "checkbox")
        own.push(inlineText((child as { tokens?: Token[] }).tokens, "text" in child && typeof child.text === "string" ? child.text : ""));
    }
    lines.push(`${"  ".repeat(depth)}${marker} ${check}${own.join(" ").trim()}`);
    lines.push(...nested);
  });
  return lines;
}

class MarkdownBlockBuilder {
  readonly blocks: DraftBlock[] = [];
  private path: { level: number; text: string }[] = [];

  constructor(private readonly unit: string | undefined) {}

  private base(): { sectionPath: string[]; unit?: string } {
    const sectionPath = this.path.map((h) => h.text);
    return this.unit === undefined ? { sectionPath } : { sectionPath, unit: this.unit };
  }

  visit(tokens: Token[]): void {
    for (const token of tokens) this.visitOne(token);
  }

  private visitOne(token: Token): void {
    switch (token.type) {
      case "heading": {
        const heading = token as Tokens.Heading;
        const text = inlineText(heading.tokens, heading.text).trim();
        this.path = this.path.filter((h) => h.level < heading.depth);
        this.path.push({ level: heading.depth, text });
        this.blocks.push({ kind: "heading", level: heading.depth, text, ...this.base() });
        return;
      }
      case "paragraph":
      case "text": {
        const t = token as Tokens.Paragraph | Tokens.Text;
        this.blocks.push({ kind: "paragraph", text: inlineText(t.tokens, t.text), ...this.base() });
        return;
      }
      case "list": {
        const list = token as Tokens.List;
        const lines = listLines(list, 0);
        this.blocks.push({ kind: "list", ordered: list.ordered, items: lines, text: lines.join("\n"), ...this.base() });
        return;
      }
      case "table": {
        const table = token as Tokens.Table;
        const header = table.header.map((c) => inlineText(c.tokens, c.text).trim());
        const rows = table.rows.map((r) => r.map((c) => inlineText(c.tokens, c.text).trim()));
        const text = rows.map((r) => tableRowText(header, r)).join("\n");
        this.blocks.push({ kind: "table", header, rows, text: text.length > 0 ? text : header.join(" | "), ...this.base() });
        return;
      }
      case "code": {
        const code = token as Tokens.Code;
        const lang = code.lang?.trim();
        this.blocks.push({ kind: "code", text: code.text, ...(lang ? { language: lang } : {}), ...this.base() });
        return;
      }
      case "blockquote":
        this.visit((token as Tokens.Blockquote).tokens);
        return;
      default:
        // space, hr, html, def and extension tokens carry no indexable prose.
        return;
    }
  }
}

/** Markdown text to blocks; `unit` tags every block (used for memories and app-item bodies). */
export function markdownToBlocks(markdown: string, unit?: string): { blocks: DraftBlock[]; title?: string } {
  const { body, title } = stripFrontmatter(markdown);
  const builder = new MarkdownBlockBuilder(unit);
  builder.visit(new Lexer({ gfm: true }).lex(body));
  const firstHeading = builder.blocks.find((b) => b.kind === "heading");
  const found = title ?? firstHeading?.text;
  return found === undefined ? { blocks: builder.blocks } : { blocks: builder.blocks, title: found };
}

export function parseMarkdown(markdown: string, fileName: string, format: SourceFormat = "markdown"): ParsedDocument {
  const { blocks, title } = markdownToBlocks(markdown);
  return buildDocument({ format, title: title ?? titleFromFileName(fileName), blocks });
}
