// The closed vocabulary of canonical predicates. Chunk relations (from text) and structural
// relations (from app item fields) share it so one graph query can follow both.

export const TEXT_PREDICATES = [
  "works_at",
  "works_with",
  "reports_to",
  "located_in",
  "lives_in",
  "travels_to",
  "met_with",
  "mentions",
  "likes",
  "dislikes",
  "owns",
  "uses",
  "part_of",
  "created",
  "assigned_to",
  "related_to",
] as const;

export const STRUCTURAL_PREDICATES = [
  "sent",
  "sent_to",
  "cc",
  "assigned_to",
  "authored",
  "mentions",
  "commented_on",
  "has_attachment",
  "participated_in",
  "parent_of",
  "part_of",
] as const;

export type TextPredicate = (typeof TEXT_PREDICATES)[number];
export type StructuralPredicate = (typeof STRUCTURAL_PREDICATES)[number];
export type CanonicalPredicate = TextPredicate | StructuralPredicate;

const TEXT_SET: ReadonlySet<string> = new Set(TEXT_PREDICATES);

export function isTextPredicate(value: string): value is TextPredicate {
  return TEXT_SET.has(value);
}
