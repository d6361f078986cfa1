import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { stem } from "./stem.js";
import { STOP_WORDS } from "./stop-words.js";

// An empty pipe: only wink's tokenizer runs (no sentence boundaries, POS or entities), which is
// what makes it fast enough (about a million tokens/s) for indexing.
const nlp = winkNLP(model, []);
const its = nlp.its;

/** URL, email and similar compound tokens are also indexed by their word parts. */
const COMPOUND_TYPES = new Set(["url", "email"]);
const URL_NOISE = new Set(["http", "https", "www", "com", "org", "net", "html", "mailto"]);
const HAS_ALNUM = /[\p{L}\p{N}]/u;
const HAS_DIGIT = /\p{N}/u;

function pushTerm(out: string[], word: string): void {
  if (word.length === 0 || STOP_WORDS.has(word) || !HAS_ALNUM.test(word)) return;
  // Porter2 is defined for words; applied to numbers, times or codes it mangles them ("3.5" -> "y.5").
  out.push(HAS_DIGIT.test(word) ? word : stem(word));
}

/**
 * BM25 terms of a text: lowercased wink-nlp tokens without punctuation and stop words, porter2
 * stemmed. Hashtags and mentions lose their sigil; URLs and emails are kept whole and also split
 * into their word parts. Deterministic: both storage backends index and query with this function.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  if (text.length === 0) return out;
  const doc = nlp.readDoc(text.toLowerCase());
  const values = doc.tokens().out();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- wink's its.* are plain functions passed by reference.
  const types = doc.tokens().out(its.type);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const type = types[i];
    if (value === undefined || type === "punctuation" || type === "tabCRLF") continue;
    if (type === "hashtag" || type === "mention") {
      pushTerm(out, value.slice(1));
    } else if (type !== undefined && COMPOUND_TYPES.has(type)) {
      out.push(value);
      for (const part of value.split(/[^\p{L}\p{N}]+/u)) if (part.length > 1 && !URL_NOISE.has(part)) pushTerm(out, part);
    } else {
      pushTerm(out, value);
    }
  }
  return out;
}

export function termFrequencies(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
