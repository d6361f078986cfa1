/**
 * One table or CSV row as `header: value` pairs. Empty cells are left out: they carry no meaning
 * and would only dilute embeddings and BM25 lengths.
 */
export function tableRowText(header: string[], row: string[]): string {
  const pairs: string[] = [];
  const width = Math.max(header.length, row.length);
  for (let i = 0; i < width; i++) {
    const value = (row[i] ?? "").trim();
    if (value.length === 0) continue;
    const name = (header[i] ?? "").trim() || `column ${i + 1}`;
    pairs.push(`${name}: ${value}`);
  }
  return pairs.join("; ");
}
