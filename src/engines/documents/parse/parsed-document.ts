// The common output of every parser and of app-item rendering: an ordered list of typed blocks over
// one canonical text. Invariant (checked by `buildDocument`): for every block,
// `document.text.slice(block.start, block.end) === block.text`. Chunkers rely on it to report
// character offsets that point back into the document.

export type SourceFormat = "pdf" | "docx" | "markdown" | "csv" | "txt" | "app_item" | "memory";

interface BlockBase {
  /** Rendered text of the block, as it appears in `ParsedDocument.text`. */
  text: string;
  /** Enclosing headings, outermost first. A heading's own path includes itself. */
  sectionPath: string[];
  /** 1-based page number, for paged formats (PDF). */
  page?: number;
  /**
   * Blocks with a unit key are chunked only with blocks of the same key (one email, one comment,
   * one attachment, one conversation turn); blocks without one group by section and page.
   */
  unit?: string;
  /** Offsets into `ParsedDocument.text`, filled in by `buildDocument`. */
  start: number;
  end: number;
}

export interface HeadingBlock extends BlockBase {
  kind: "heading";
  level: number;
}
export interface ParagraphBlock extends BlockBase {
  kind: "paragraph";
}
export interface ListBlock extends BlockBase {
  kind: "list";
  ordered: boolean;
  items: string[];
}
/** Tables render one row per line as `header: value` pairs so any split keeps the header. */
export interface TableBlock extends BlockBase {
  kind: "table";
  header: string[];
  rows: string[][];
}
export interface CodeBlock extends BlockBase {
  kind: "code";
  language?: string;
}
/** One CSV data row, rendered as `header: value` pairs. */
export interface RecordBlock extends BlockBase {
  kind: "record";
  header: string[];
  values: string[];
  /** 1-based data row number (the header line is not counted). */
  rowNumber: number;
}
/** A named field of an app item ("From", "Status", ...). */
export interface FieldBlock extends BlockBase {
  kind: "field";
  name: string;
}
export interface CommentBlock extends BlockBase {
  kind: "comment";
  commentId?: string;
  author?: string;
  createdAt?: string;
}
export interface AttachmentBlock extends BlockBase {
  kind: "attachment";
  name: string;
  mimeType?: string;
  url?: string;
}
/** One user/assistant exchange of a memory. */
export interface TurnBlock extends BlockBase {
  kind: "turn";
}

export type Block = HeadingBlock | ParagraphBlock | ListBlock | TableBlock | CodeBlock | RecordBlock | FieldBlock | CommentBlock | AttachmentBlock | TurnBlock;

export interface ParsedDocument {
  format: SourceFormat;
  title: string;
  /** All block texts joined by BLOCK_SEPARATOR. */
  text: string;
  blocks: Block[];
  /** Number of pages for paged formats. */
  pageCount?: number;
  /** Format-specific facts worth keeping (CSV header, PDF info title, ...). */
  metadata: Record<string, string | number | boolean | string[]>;
}

export const BLOCK_SEPARATOR = "\n\n";

/** A block before offsets are assigned. */
export type DraftBlock = Block extends infer B ? (B extends Block ? Omit<B, "start" | "end"> : never) : never;

export type ParseFailureCode = "INVALID_FILE_FORMAT" | "PROCESSING_FAILED" | "FILE_TOO_LARGE";

export interface ParseFailure {
  ok: false;
  code: ParseFailureCode;
  message: string;
}

export type ParseResult = { ok: true; document: ParsedDocument } | ParseFailure;

export function parseFailure(code: ParseFailureCode, message: string): ParseFailure {
  return { ok: false, code, message };
}
