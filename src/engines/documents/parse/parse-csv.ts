import { parse } from "csv-parse/sync";
import { buildDocument, titleFromFileName } from "./build-document.js";
import type { DraftBlock, ParsedDocument } from "./parsed-document.js";
import { tableRowText } from "./table-text.js";

const DELIMITERS = [",", ";", "\t", "|"] as const;

/** Counts a delimiter on the first line, ignoring quoted sections. */
function countOutsideQuotes(line: string, delimiter: string): number {
  let inQuotes = false;
  let count = 0;
  for (const ch of line) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && ch === delimiter) count++;
  }
  return count;
}

/** European spreadsheets export `;`-separated CSV and TSV files are often named .csv. */
function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  let best: string = ",";
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const n = countOutsideQuotes(firstLine, d);
    if (n > bestCount) {
      best = d;
      bestCount = n;
    }
  }
  return best;
}

export function parseCsv(text: string, fileName: string): ParsedDocument {
  const records: string[][] = parse(text, {
    delimiter: detectDelimiter(text),
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    trim: true,
  });
  const [rawHeader, ...rows] = records;
  const header = (rawHeader ?? []).map((h, i) => (h.length > 0 ? h : `column ${i + 1}`));
  const blocks: DraftBlock[] = rows.map((values, i) => ({
    kind: "record",
    header,
    values,
    rowNumber: i + 1,
    text: tableRowText(header, values),
    sectionPath: [],
  }));
  return buildDocument({
    format: "csv",
    title: titleFromFileName(fileName),
    blocks,
    metadata: { header, rowCount: rows.length },
  });
}
