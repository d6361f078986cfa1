// Mentions are what entity extraction finds in one text: a typed surface form with its position.
// They are not yet graph entities; the resolver turns them into stable entity ids.

export const MENTION_KINDS = [
  "person",
  "organization",
  "place",
  "product",
  "email",
  "mention",
  "hashtag",
  "url",
  "ticket",
  "date",
  "time",
  "duration",
  "money",
  "percent",
] as const;

export type MentionKind = (typeof MENTION_KINDS)[number];

/** Half-open character range [start, end) into the extracted text, in UTF-16 code units. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface Mention {
  readonly kind: MentionKind;
  /** The text exactly as written, equal to `text.slice(span.start, span.end)`. */
  readonly surface: string;
  readonly span: Span;
  /** Comparison key: lowercased emails, handles without `@`, names folded (see normalize.ts). */
  readonly key: string;
  /** Calendar date (YYYY-MM-DD) or instant (ISO 8601) for `date` mentions that could be resolved. */
  readonly resolved?: string;
  /** Which pass produced the mention; kept for debugging and for the benchmark breakdown. */
  readonly via: "wink" | "compromise" | "pattern" | "speaker";
}

/** Kinds that can be the subject or object of a chunk relation; the others are attributes. */
export function isRelatableKind(kind: MentionKind): boolean {
  switch (kind) {
    case "person":
    case "organization":
    case "place":
    case "product":
    case "email":
    case "mention":
    case "hashtag":
    case "url":
    case "ticket":
      return true;
    case "date":
    case "time":
    case "duration":
    case "money":
    case "percent":
      return false;
  }
}

/** Kinds that carry when something happened, gathered into a relation's `temporal_details`. */
export function isTemporalKind(kind: MentionKind): boolean {
  return kind === "date" || kind === "time" || kind === "duration";
}
