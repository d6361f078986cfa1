import { BACKSLASH, CLOSE_BRACE, COLON, COMMA, DIGIT_0, DIGIT_9, OPEN_BRACE, QUOTE } from "../../platform/util/json-chars.js";

/**
 * A chunk's BM25 postings as the store keeps them (`context_chunks.terms`, migration 0022): one
 * JSON object of term to frequency. Any term is a valid key, `__proto__` too (JSON.parse makes it
 * an own property).
 */
export function encodeTerms(terms: ReadonlyMap<string, number>): string {
  // Written pair by pair: an object built of each chunk's own terms (Object.fromEntries) took a new
  // object shape per chunk, 16-50 us a chunk of about 70 words against 6 us.
  let out = "{";
  for (const [term, tf] of terms) out += `${out.length > 1 ? "," : ""}${JSON.stringify(term)}:${tf}`;
  return `${out}}`;
}

/** The stored postings as term-frequency pairs; none for null (a chunk stored without any). */
export function decodeTerms(stored: string | null): Array<[string, number]> {
  if (stored === null || stored === "") return [];
  return scanTerms(stored) ?? parseTerms(stored);
}

/** The general reader: every JSON object (whitespace, fractions), via JSON.parse. */
function parseTerms(stored: string): Array<[string, number]> {
  const parsed = JSON.parse(stored) as Record<string, unknown>;
  const out: Array<[string, number]> = [];
  for (const [term, tf] of Object.entries(parsed)) if (typeof tf === "number" && tf > 0) out.push([term, tf]);
  return out;
}

/**
 * The reader of what encodeTerms writes (`{"term":tf,...}`: no whitespace, whole numbers),
 * scanning the text once; null on anything else, which parseTerms then reads. JSON.parse made a
 * new object shape for nearly every chunk (each has its own set of terms): 39 us a chunk of about
 * 70 words against 2 us here, the most of loading the BM25 indexes from the chunk rows at start.
 * Pairs come in stored order (JSON.parse puts integer-like terms first; the order means nothing).
 */
function scanTerms(s: string): Array<[string, number]> | null {
  const n = s.length;
  const out: Array<[string, number]> = [];
  if (s.charCodeAt(0) !== OPEN_BRACE) return null;
  let i = 1;
  if (s.charCodeAt(i) === CLOSE_BRACE) return i + 1 === n ? out : null;
  for (;;) {
    if (s.charCodeAt(i) !== QUOTE) return null;
    let end = i + 1;
    let escaped = false;
    for (; end < n; end++) {
      const c = s.charCodeAt(end);
      if (c === BACKSLASH) {
        escaped = true;
        end++;
      } else if (c === QUOTE) break;
    }
    if (end >= n) return null;
    // A term with an escape (a quote, a backslash, a control character) is rare: JSON reads it.
    const term = escaped ? (JSON.parse(s.slice(i, end + 1)) as string) : s.slice(i + 1, end);
    i = end + 1;
    if (s.charCodeAt(i) !== COLON) return null;
    let tf = 0;
    let k = i + 1;
    for (; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c < DIGIT_0 || c > DIGIT_9) break;
      tf = tf * 10 + (c - DIGIT_0);
    }
    if (k === i + 1) return null;
    const next = s.charCodeAt(k);
    if (next !== COMMA && next !== CLOSE_BRACE) return null;
    if (tf > 0) out.push([term, tf]);
    i = k + 1;
    if (next === CLOSE_BRACE) return i === n ? out : null;
  }
}
