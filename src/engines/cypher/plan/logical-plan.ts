import type { Evaluator } from "../exec/context.js";
import type { MatchProgram } from "../exec/match-program.js";
import type { IndexDefinition } from "../store/graph-store.js";

/**
 * The logical plan: a pipeline of steps per single query. Expressions inside are already compiled
 * to evaluators; the operator builder turns each step into a pull-based iterator.
 */
export type PlanStep =
  | { readonly kind: "Match"; readonly optional: boolean; readonly program: MatchProgram }
  | { readonly kind: "Unwind"; readonly list: Evaluator; readonly variable: string }
  | { readonly kind: "Projection"; readonly spec: ProjectionSpec }
  | { readonly kind: "Create"; readonly patterns: readonly CreatePattern[] }
  | {
      readonly kind: "Merge";
      readonly pattern: CreatePattern;
      readonly program: MatchProgram;
      readonly onCreate: readonly SetOp[];
      readonly onMatch: readonly SetOp[];
    }
  | { readonly kind: "Update"; readonly ops: readonly SetOp[] }
  | { readonly kind: "Delete"; readonly targets: readonly Evaluator[]; readonly detach: boolean }
  | { readonly kind: "CallSubquery"; readonly plan: QueryPlan; readonly imports: boolean; readonly returns: boolean }
  | { readonly kind: "SchemaChange"; readonly action: "create" | "drop"; readonly index: IndexDefinition };

export interface AggregateSlot {
  readonly slot: string;
  readonly name: string;
  readonly distinct: boolean;
  /** null for count(*). */
  readonly arg: Evaluator | null;
  /** The percentile argument of percentileCont/percentileDisc. */
  readonly extra: Evaluator | null;
}

export interface ProjectionSpec {
  readonly items: readonly { readonly name: string; readonly eval: Evaluator }[];
  /** `WITH *` / `RETURN *`: keep the visible input variables as well. */
  readonly keep: readonly string[];
  readonly aggregation: { readonly keys: readonly Evaluator[]; readonly slots: readonly AggregateSlot[] } | null;
  readonly distinct: boolean;
  readonly orderBy: readonly { readonly eval: Evaluator; readonly descending: boolean }[];
  readonly skip: Evaluator | null;
  readonly limit: Evaluator | null;
  readonly where: Evaluator | null;
}

export type SetOp =
  | { readonly kind: "SetProperty"; readonly target: Evaluator; readonly key: string; readonly value: Evaluator }
  | { readonly kind: "SetAll"; readonly target: Evaluator; readonly value: Evaluator; readonly merge: boolean }
  | { readonly kind: "SetLabels"; readonly target: Evaluator; readonly labels: readonly string[] }
  | { readonly kind: "RemoveProperty"; readonly target: Evaluator; readonly key: string }
  | { readonly kind: "RemoveLabels"; readonly target: Evaluator; readonly labels: readonly string[] };

export interface CreateNode {
  readonly variable: string;
  readonly labels: readonly string[];
  readonly props: Evaluator | null;
}

export interface CreateRel {
  readonly variable: string;
  readonly type: string;
  /** Relative to the pattern order: "out" means nodes[i] -> nodes[i + 1]. */
  readonly direction: "out" | "in";
  readonly props: Evaluator | null;
}

export interface CreatePattern {
  readonly pathVariable: string | null;
  readonly nodes: readonly CreateNode[];
  readonly rels: readonly CreateRel[];
}

export type QueryPlan =
  | { readonly kind: "Single"; readonly steps: readonly PlanStep[]; readonly columns: readonly string[] }
  | { readonly kind: "Union"; readonly parts: readonly QueryPlan[]; readonly distinct: boolean; readonly columns: readonly string[] };
