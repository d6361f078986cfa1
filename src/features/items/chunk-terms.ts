/**
 * A chunk's BM25 postings as the store keeps them (`context_chunks.terms`, migration 0022): one
 * JSON object of term to frequency. Any term is a valid key, `__proto__` too (JSON.parse and
 * Object.fromEntries both make own properties).
 */
export function encodeTerms(terms: ReadonlyMap<string, number>): string {
  return JSON.stringify(Object.fromEntries(terms));
}

/** The stored postings as term-frequency pairs; none for null (a chunk stored without any). */
export function decodeTerms(stored: string | null): Array<[string, number]> {
  if (stored === null || stored === "") return [];
  const parsed = JSON.parse(stored) as Record<string, unknown>;
  const out: Array<[string, number]> = [];
  for (const [term, tf] of Object.entries(parsed)) if (typeof tf === "number" && tf > 0) out.push([term, tf]);
  return out;
}
