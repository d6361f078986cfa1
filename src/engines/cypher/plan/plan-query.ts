import type { Clause } from "../ast/clauses.js";
import type { Expr } from "../ast/expressions.js";
import type { Query, SingleQuery } from "../ast/query.js";
import { compileExpr } from "../exec/compile-expression.js";
import { patternVariables } from "../semantic/free-variables.js";
import type { PlanStep, QueryPlan } from "./logical-plan.js";
import { planMatch } from "./match-planner.js";
import { planProjection } from "./plan-projection.js";
import { planCreatePattern, planRemoveItems, planSetItems } from "./plan-updates.js";

/** AST (already checked by the semantic pass) -> logical plan. */
export function planQuery(query: Query, scope: ReadonlySet<string> = new Set()): QueryPlan {
  if (query.kind === "SingleQuery") return planSingle(query, scope);
  const parts = query.parts.map((p) => planSingle(p, scope));
  return { kind: "Union", parts, distinct: !query.all.every((a) => a), columns: parts[0]?.columns ?? [] };
}

function scopedCompile(e: Expr, scope: ReadonlySet<string>) {
  return compileExpr(e, { scope, aggregates: null });
}

function planSingle(query: SingleQuery, initial: ReadonlySet<string>): QueryPlan & { kind: "Single" } {
  let scope = new Set(initial);
  const steps: PlanStep[] = [];
  let columns: string[] = [];
  for (const clause of query.clauses) {
    const result = planClause(clause, scope);
    steps.push(...result.steps);
    scope = result.scope;
    if (result.columns !== null) columns = result.columns;
  }
  return { kind: "Single", steps, columns };
}

interface ClausePlan {
  readonly steps: PlanStep[];
  readonly scope: Set<string>;
  readonly columns: string[] | null;
}

function planClause(clause: Clause, scope: Set<string>): ClausePlan {
  const same = (steps: PlanStep[], extra: string[] = []): ClausePlan => ({ steps, scope: new Set([...scope, ...extra]), columns: null });
  switch (clause.kind) {
    case "Match": {
      const program = planMatch(clause.patterns, clause.where, scope, scopedCompile);
      return same([{ kind: "Match", optional: clause.optional, program }], clause.patterns.flatMap(patternVariables));
    }
    case "Unwind":
      return same([{ kind: "Unwind", list: scopedCompile(clause.expr, scope), variable: clause.variable }], [clause.variable]);
    case "With": {
      const { spec, names } = planProjection(clause, clause.where, scope);
      return { steps: [{ kind: "Projection", spec }], scope: new Set(names), columns: null };
    }
    case "Return": {
      const { spec, names } = planProjection(clause, null, scope);
      return { steps: [{ kind: "Projection", spec }], scope: new Set(names), columns: names };
    }
    case "Create": {
      const patterns = clause.patterns.map((p) => planCreatePattern(p, scope));
      return same([{ kind: "Create", patterns }], clause.patterns.flatMap(patternVariables));
    }
    case "Merge": {
      const program = planMatch([clause.pattern], null, scope, scopedCompile);
      const after = new Set([...scope, ...patternVariables(clause.pattern)]);
      return same(
        [
          {
            kind: "Merge",
            pattern: planCreatePattern(clause.pattern, scope),
            program,
            onCreate: planSetItems(clause.onCreate, after),
            onMatch: planSetItems(clause.onMatch, after),
          },
        ],
        patternVariables(clause.pattern),
      );
    }
    case "Set":
      return same([{ kind: "Update", ops: planSetItems(clause.items, scope) }]);
    case "Remove":
      return same([{ kind: "Update", ops: planRemoveItems(clause.items, scope) }]);
    case "Delete":
      return same([{ kind: "Delete", targets: clause.exprs.map((e) => scopedCompile(e, scope)), detach: clause.detach }]);
    case "CallSubquery": {
      const body = clause.body;
      const first = body.kind === "SingleQuery" ? body.clauses[0] : body.parts[0]?.clauses[0];
      const imports = first?.kind === "With";
      const plan = planQuery(body, imports ? scope : new Set());
      return same([{ kind: "CallSubquery", plan, imports, returns: plan.columns.length > 0 }], [...plan.columns]);
    }
    case "CreateIndex":
    case "DropIndex": {
      const steps: PlanStep[] = clause.properties.map((property) => ({
        kind: "SchemaChange",
        action: clause.kind === "CreateIndex" ? "create" : "drop",
        index: { entity: clause.entity, token: clause.token, property },
      }));
      return same(steps);
    }
  }
}
