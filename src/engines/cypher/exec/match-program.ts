import type { Direction } from "../ast/patterns.js";
import type { Evaluator } from "./context.js";

/**
 * A pattern compiled into binding steps. Every node and relationship has a variable (anonymous
 * ones get hidden names), so steps can uniformly check "already bound" at runtime. Filters are
 * WHERE conjuncts placed after the first step at which all of their pattern variables are bound.
 */
export interface MatchNode {
  readonly variable: string;
  readonly labels: readonly string[];
  readonly props: readonly (readonly [string, Evaluator])[];
  /** Property equalities usable for an index lookup when this node starts a part. */
  readonly lookups: readonly (readonly [string, Evaluator])[];
}

export interface MatchRel {
  readonly variable: string;
  readonly types: readonly string[];
  readonly direction: Direction;
  readonly props: readonly (readonly [string, Evaluator])[];
  /** null for a single-hop relationship. */
  readonly varLength: { readonly min: number; readonly max: number } | null;
  /** The planner walks this hop against the written direction; lists are bound in written order. */
  readonly reversed: boolean;
}

export type MatchStep =
  | { readonly op: "node"; readonly node: MatchNode; readonly filters: readonly Evaluator[] }
  | { readonly op: "expand"; readonly rel: MatchRel; readonly to: MatchNode; readonly filters: readonly Evaluator[] }
  | {
      readonly op: "path";
      readonly variable: string;
      readonly nodes: readonly string[];
      readonly rels: readonly string[];
      readonly filters: readonly Evaluator[];
    };

export interface MatchProgram {
  /** Filters that depend on no variable of the pattern; checked once before matching. */
  readonly preFilters: readonly Evaluator[];
  readonly steps: readonly MatchStep[];
  /** Variables that this pattern binds (excluding ones bound before it), for OPTIONAL MATCH nulls. */
  readonly introduced: readonly string[];
}
