import { decodeText } from "./decode-text.js";
import type { FileFormat } from "./detect-format.js";
import { parseCsv } from "./parse-csv.js";
import { parseDocx } from "./parse-docx.js";
import { parseMarkdown } from "./parse-markdown.js";
import { parsePdf } from "./parse-pdf.js";
import { parseText } from "./parse-text.js";
import type { ParsedDocument } from "./parsed-document.js";

/** The parser of one detected format, run wherever the caller runs it (its thread, or a parser worker). */
export async function parseByFormat(format: FileFormat, bytes: Uint8Array, fileName: string): Promise<ParsedDocument> {
  switch (format) {
    case "pdf":
      return parsePdf(bytes, fileName);
    case "docx":
      return parseDocx(bytes, fileName);
    case "markdown":
      return parseMarkdown(decodeText(bytes), fileName);
    case "csv":
      return parseCsv(decodeText(bytes), fileName);
    case "txt":
      return parseText(decodeText(bytes), fileName);
  }
}
