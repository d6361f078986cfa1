import type { Clause } from "./clauses.js";
import type { Span } from "./span.js";

export interface SingleQuery {
  readonly kind: "SingleQuery";
  readonly span: Span;
  readonly clauses: readonly Clause[];
}

/** `parts[0] UNION [ALL] parts[1] ...`; `all[i]` joins parts[i] and parts[i + 1]. */
export interface UnionQuery {
  readonly kind: "Union";
  readonly span: Span;
  readonly parts: readonly SingleQuery[];
  readonly all: readonly boolean[];
}

export type Query = SingleQuery | UnionQuery;
