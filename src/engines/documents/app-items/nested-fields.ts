// The texts inside a custom item's nested `fields` (a `data` object, lists of records): a custom
// item has no known field names, so every text under its fields is indexed, labelled with its path.
// Bounded: deeper levels, and texts past the character or count budget, are left out.

/** One text under the fields: its path of keys (list positions left out) and the text. */
export interface NestedText {
  readonly path: readonly string[];
  readonly text: string;
}

interface NestedBudget {
  /** Levels of objects and lists below `fields` that are read. */
  readonly maxDepth: number;
  /** Texts kept, at most. */
  readonly maxTexts: number;
  /** Characters kept over all texts, at most (the last one is cut to fit). */
  readonly maxChars: number;
}

/** Generous for any record a client sends, small enough that one item cannot dominate a chunk job. */
const NESTED_BUDGET: NestedBudget = { maxDepth: 8, maxTexts: 2_000, maxChars: 1_000_000 };

/** Keys whose values are identifiers, times, links or raw markup at any depth: not text for a reader. */
const HIDDEN_KEY = /(^|_)(id|ts|url|html|raw)$/;

const scalarText = (value: unknown): string | undefined => {
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return undefined;
};

/** Texts under `value`, in document order, depth-first; `skip` says which top-level keys are rendered elsewhere. */
export function nestedTexts(fields: Readonly<Record<string, unknown>>, skip: (key: string) => boolean, budget: NestedBudget = NESTED_BUDGET): NestedText[] {
  const out: NestedText[] = [];
  let chars = 0;
  const full = (): boolean => out.length >= budget.maxTexts || chars >= budget.maxChars;
  const keep = (path: readonly string[], text: string): void => {
    const room = budget.maxChars - chars;
    const kept = text.length > room ? text.slice(0, room) : text;
    chars += kept.length;
    out.push({ path, text: kept });
  };
  const visit = (value: unknown, path: readonly string[], depth: number): void => {
    if (full()) return;
    const scalar = scalarText(value);
    if (scalar !== undefined) {
      keep(path, scalar);
      return;
    }
    if (depth >= budget.maxDepth || typeof value !== "object" || value === null) return;
    if (Array.isArray(value)) {
      // A list of scalars reads as one text (tags, names); a list of records, record by record.
      const scalars = value.map(scalarText);
      if (scalars.every((s) => s !== undefined) && value.length > 0) {
        keep(path, scalars.join(", "));
        return;
      }
      for (const entry of value) visit(entry, path, depth + 1);
      return;
    }
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      if (HIDDEN_KEY.test(key)) continue;
      visit(entry, [...path, key], depth + 1);
    }
  };
  for (const [key, value] of Object.entries(fields)) {
    if (skip(key) || HIDDEN_KEY.test(key)) continue;
    visit(value, [key], 0);
  }
  return out;
}
