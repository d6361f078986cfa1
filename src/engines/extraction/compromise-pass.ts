import { createRequire } from "node:module";
import nlp from "compromise";
import type { DatesMethods } from "compromise-dates";
import type { MentionKind, Span } from "./mention.js";

// The slow pass (~300-600 short docs/s): compromise's lexicon and tagger find people, places and
// organisations that no pattern can. It also backs up the date resolver for unusual phrasings.

/**
 * The dates plugin tags every text it reads, and entity analysis does not need it: the same
 * people, places and organisations come out without it (5,000 LoCoMo questions and turns),
 * and a text costs about 20% less (3.4 to 2.7 ms). So the plugin goes on a second instance of
 * compromise, its CommonJS build (a world of its own), which only the date fallback uses.
 */
const require = createRequire(import.meta.url);
const datesNlp = require("compromise") as typeof nlp;
datesNlp.plugin(require("compromise-dates") as Parameters<typeof nlp.plugin>[0]);

export interface CompromiseEntity {
  readonly kind: Extract<MentionKind, "person" | "place" | "organization">;
  readonly span: Span;
}

interface OffsetMatch {
  readonly offset: { readonly start: number; readonly length: number };
}

function isOffsetMatch(value: unknown): value is OffsetMatch {
  if (typeof value !== "object" || value === null || !("offset" in value)) return false;
  const offset = value.offset;
  return (
    typeof offset === "object" &&
    offset !== null &&
    typeof (offset as { start?: unknown }).start === "number" &&
    typeof (offset as { length?: unknown }).length === "number"
  );
}

/** compromise spans include trailing punctuation ("London."); trims it so spans match the name. */
function trimmedSpan(text: string, start: number, length: number): Span | undefined {
  let end = start + length;
  let from = start;
  while (end > from && /[\s.,;:!?)"'’\-–—]/.test(text.charAt(end - 1))) end -= 1;
  while (from < end && /[\s("'‘“]/.test(text.charAt(from))) from += 1;
  // "Melanie's sister" names Melanie: the possessive is grammar, not part of the name.
  const possessive = /['’]s$/i.exec(text.slice(from, end));
  if (possessive !== null) end -= possessive[0].length;
  return end > from ? { start: from, end } : undefined;
}

function spansOf(text: string, matches: unknown): Span[] {
  if (!Array.isArray(matches)) return [];
  const spans: Span[] = [];
  for (const match of matches as unknown[]) {
    if (!isOffsetMatch(match)) continue;
    const span = trimmedSpan(text, match.offset.start, match.offset.length);
    if (span !== undefined) spans.push(span);
  }
  return spans;
}

type JsonOptions = Exclude<Parameters<ReturnType<typeof nlp>["json"]>[0], string | number | undefined>;

/**
 * Only the offsets are read: without the per-term objects and texts `json` builds by default, a
 * text's pass costs about 5% less (the same offsets on 4,500 LoCoMo questions and turns).
 * compromise turns an output off when its option is falsy (`option[k] && fns[k]`), though its
 * type declares `terms` as an object of term options only.
 */
const OFFSETS_ONLY = { offset: true, terms: false, text: false, normal: false } as unknown as JsonOptions;

/**
 * A colon before a space ends a clause for compromise: in "Caroline: Thanks Mel!" (a transcript's
 * speaker, a label) it read one person, "Caroline: Thanks Mel", and in "Jon: Thanks Gina" the
 * person "Thanks Gina" (60 of the 148 people of the LoCoMo graph were such). Read as a full stop
 * it gives Caroline and Mel, Jon and Gina. Same length, so the offsets hold for the text itself.
 */
const asClauses = (text: string): string => text.replace(/:(?=\s)/g, ".");

export function analyzeWithCompromise(text: string): CompromiseEntity[] {
  const doc = nlp(asClauses(text));
  const found: CompromiseEntity[] = [];
  const push = (kind: CompromiseEntity["kind"], matches: unknown): void => {
    for (const span of spansOf(text, matches)) found.push({ kind, span });
  };
  push("person", doc.people().json(OFFSETS_ONLY));
  push("organization", doc.organizations().json(OFFSETS_ONLY));
  push("place", doc.places().json(OFFSETS_ONLY));
  return found;
}

/** Day-precision fallback for date phrases the hand-written resolver does not understand. */
export function resolveWithCompromise(expression: string, reference: Date | undefined): string | undefined {
  const options = reference === undefined ? { timezone: "UTC" } : { timezone: "UTC", today: reference.toISOString() };
  const parsed = datesNlp<DatesMethods>(expression).dates(options).get(0);
  const start = parsed?.start;
  if (typeof start !== "string" || start.length < 10) return undefined;
  return start.slice(0, 10);
}
