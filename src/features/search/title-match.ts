import { STOP_WORDS } from "../../engines/bm25/stop-words.js";

/**
 * A knowledge item whose name the question spells out ("what does the Office handbook say...",
 * "Are Christopher Nolan and Sathish Kalathil both directors?") is what the question is about:
 * field-weighted BM25 (a title field boosted over the body) does the same. Its name is its title
 * without a file extension or a trailing qualifier in parentheses ("Mark King (musician)").
 */

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The words of an item's title as a question would spell them. */
export function titleWords(title: string): string[] {
  const name = title
    .replace(/\.(?:md|markdown|mdx|txt|text|pdf|docx|csv|html?|json)$/i, "")
    .replace(/\s*\([^()]*\)\s*$/, "")
    .trim();
  return words(name);
}

/** The question's words, in order, for titleInQuery. */
export const questionWords = (query: string): string[] => words(query);

/**
 * True when the title's words occur in the question, contiguous and in order, and say more than
 * stop words or a single short token (a title like "a" or "it" is no evidence).
 */
export function titleInQuery(title: readonly string[], question: readonly string[]): boolean {
  const content = title.filter((w) => !STOP_WORDS.has(w));
  if (content.length === 0 || (title.length === 1 && (title[0]?.length ?? 0) < 3)) return false;
  outer: for (let i = 0; i + title.length <= question.length; i++) {
    for (let j = 0; j < title.length; j++) if (question[i + j] !== title[j]) continue outer;
    return true;
  }
  return false;
}
