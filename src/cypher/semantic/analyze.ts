import type { Query } from "../ast/query.js";

/** Compile-time checks; throws a CypherError on the first problem found. */
export function analyzeQuery(_query: Query, _source: string): void {
  // Filled in by the semantic pass.
}
