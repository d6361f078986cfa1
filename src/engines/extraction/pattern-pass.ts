import { MONTHS, WEEKDAYS } from "./calendar.js";
import type { MentionKind, Span } from "./mention.js";

// Patterns for things neither NLP library knows: tracker keys (Linear/Jira "ENG-123", GitHub
// "#42", "owner/repo#42") and names the caller already knows are people (thread participants,
// conversation speakers), which taggers often miss when they are lowercase or unusual.

export interface PatternEntity {
  readonly kind: Extract<MentionKind, "ticket" | "person" | "product">;
  readonly span: Span;
}

// `(?<!\.)`: an owner/repo key starts only where its run of [A-Za-z0-9_.-] starts. Without it every
// "." of "v1.v1.v1..." began another scan to the run's end (quadratic: 200 kB took about 12 s).
const TICKET = /(?<![\w/#-])(?:(?<!\.)[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+#\d+|#\d+|[A-Z][A-Z0-9]{1,9}-\d+)(?![\w-])/g;

// A capitalised or camel-cased name followed by a version ("Node 20", "iPhone 15", "Python 3.12",
// "Windows 11") is almost always a software or hardware product; compromise has no tag for those.
const PRODUCT = /(?<![\p{L}\p{N}])((?:[A-Z][\p{L}\p{N}+#]*|[a-z]+[A-Z][\p{L}\p{N}]*)(?: [A-Z][\p{L}\p{N}+#]*){0,2}) v?\d+(?:\.\d+){0,2}(?![\p{L}\p{N}%])/gu;
const NOT_PRODUCT = new Set([
  ...MONTHS.keys(),
  ...WEEKDAYS.keys(),
  "at",
  "on",
  "in",
  "by",
  "the",
  "a",
  "an",
  "i",
  "we",
  "room",
  "page",
  "chapter",
  "step",
  "section",
  "sprint",
  "week",
  "day",
  "year",
  "version",
  "issue",
  "pr",
  "q",
  "phase",
  "level",
  "floor",
  "gate",
]);

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function findTickets(text: string): PatternEntity[] {
  const found: PatternEntity[] = [];
  for (const match of text.matchAll(TICKET)) {
    const start = match.index;
    found.push({ kind: "ticket", span: { start, end: start + match[0].length } });
  }
  return found;
}

export function findProducts(text: string): PatternEntity[] {
  const found: PatternEntity[] = [];
  for (const match of text.matchAll(PRODUCT)) {
    const name = match[1] ?? "";
    const firstWord = (name.split(" ")[0] ?? "").toLowerCase();
    if (NOT_PRODUCT.has(firstWord)) continue;
    found.push({ kind: "product", span: { start: match.index, end: match.index + match[0].length } });
  }
  return found;
}

/** Whole-word, case-insensitive occurrences of known person names (longest names first). */
export function findKnownNames(text: string, names: readonly string[]): PatternEntity[] {
  const cleaned = [...new Set(names.map((name) => name.trim()).filter((name) => name.length > 1))];
  if (cleaned.length === 0) return [];
  cleaned.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}@])(?:${cleaned.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`, "giu");
  const found: PatternEntity[] = [];
  for (const match of text.matchAll(pattern)) {
    found.push({ kind: "person", span: { start: match.index, end: match.index + match[0].length } });
  }
  return found;
}
