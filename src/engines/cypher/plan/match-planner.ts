import type { Expr } from "../ast/expressions.js";
import type { NodePattern, PatternPart, RelationshipPattern } from "../ast/patterns.js";
import type { Evaluator } from "../exec/context.js";
import type { MatchNode, MatchProgram, MatchRel, MatchStep } from "../exec/match-program.js";
import { freeVariables } from "../semantic/free-variables.js";

export type ScopedCompile = (e: Expr, scope: ReadonlySet<string>) => Evaluator;

/** Hidden names for anonymous pattern elements; the leading space keeps them out of user space. */
function hiddenName(prefix: string, offset: number): string {
  return ` ${prefix}${offset}`;
}

interface Conjunct {
  readonly expr: Expr;
  readonly vars: ReadonlySet<string>;
  readonly eval: Evaluator;
  placed: boolean;
}

/**
 * Orders the parts of a MATCH (or a pattern expression) into binding steps. Each part starts from
 * its better end (bound, then labelled), and each WHERE conjunct runs as soon as its variables are
 * bound, so filters prune the search instead of running on finished rows.
 */
export function planMatch(parts: readonly PatternPart[], where: Expr | null, scope: ReadonlySet<string>, compile: ScopedCompile): MatchProgram {
  const patternVars = new Set<string>();
  for (const p of parts) collectNames(p, patternVars);
  for (const v of scope) patternVars.delete(v);
  const allScope = new Set([...scope, ...patternVars]);
  const conjuncts: Conjunct[] = splitAnd(where).map((expr) => ({
    expr,
    vars: new Set([...freeVariables(expr)].filter((v) => patternVars.has(v))),
    eval: compile(expr, allScope),
    placed: false,
  }));
  const bound = new Set(scope);
  const take = (): Evaluator[] => {
    const ready: Evaluator[] = [];
    for (const c of conjuncts) {
      if (!c.placed && [...c.vars].every((v) => bound.has(v))) {
        c.placed = true;
        ready.push(c.eval);
      }
    }
    return ready;
  };
  const preFilters = take();
  const steps: MatchStep[] = [];
  for (const part of parts) {
    const reverse = score(part.nodes[part.nodes.length - 1], bound) > score(part.nodes[0], bound);
    const nodes = reverse ? [...part.nodes].reverse() : [...part.nodes];
    const rels = reverse ? [...part.rels].reverse().map(flip) : [...part.rels];
    const first = nodes[0];
    if (first === undefined) continue;
    const firstNode = compileNode(first, conjuncts, bound, allScope, compile);
    bound.add(firstNode.variable);
    steps.push({ op: "node", node: firstNode, filters: take() });
    rels.forEach((r, k) => {
      const rel = compileRel(r, allScope, compile, reverse);
      const target = nodes[k + 1];
      if (target === undefined) return;
      const to = compileNode(target, conjuncts, bound, allScope, compile);
      bound.add(rel.variable);
      bound.add(to.variable);
      steps.push({ op: "expand", rel, to, filters: take() });
    });
    if (part.pathVariable !== null) {
      bound.add(part.pathVariable);
      steps.push({
        op: "path",
        variable: part.pathVariable,
        nodes: part.nodes.map(nodeName),
        rels: part.rels.map(relName),
        filters: take(),
      });
    }
  }
  const leftover = conjuncts.filter((c) => !c.placed).map((c) => c.eval);
  const last = steps.pop();
  if (last !== undefined) steps.push({ ...last, filters: [...last.filters, ...leftover] });
  const introduced = [...patternVars];
  return { preFilters: last === undefined ? [...preFilters, ...leftover] : preFilters, steps, introduced };
}

function collectNames(p: PatternPart, out: Set<string>): void {
  if (p.pathVariable !== null) out.add(p.pathVariable);
  for (const n of p.nodes) out.add(nodeName(n));
  for (const r of p.rels) out.add(relName(r));
}

export function nodeName(n: NodePattern): string {
  return n.variable ?? hiddenName("n", n.span.start);
}

export function relName(r: RelationshipPattern): string {
  return r.variable ?? hiddenName("r", r.span.start);
}

function score(n: NodePattern | undefined, bound: ReadonlySet<string>): number {
  if (n === undefined) return 0;
  if (n.variable !== null && bound.has(n.variable)) return 4;
  return (n.labels.length > 0 ? 2 : 0) + (n.properties !== null ? 1 : 0);
}

function flip(r: RelationshipPattern): RelationshipPattern {
  const direction = r.direction === "out" ? "in" : r.direction === "in" ? "out" : "both";
  return { ...r, direction };
}

function splitAnd(e: Expr | null): Expr[] {
  if (e === null) return [];
  if (e.kind === "Binary" && e.op === "and") return [...splitAnd(e.left), ...splitAnd(e.right)];
  return [e];
}

function mapEntries(e: Expr | null, scope: ReadonlySet<string>, compile: ScopedCompile): (readonly [string, Evaluator])[] {
  if (e === null) return [];
  if (e.kind === "Map") return e.entries.map(([k, v]) => [k, compile(v, scope)] as const);
  // A parameter map: each key is looked up at runtime.
  const whole = compile(e, scope);
  return [[" *", whole]];
}

function compileNode(
  n: NodePattern,
  conjuncts: readonly Conjunct[],
  bound: ReadonlySet<string>,
  scope: ReadonlySet<string>,
  compile: ScopedCompile,
): MatchNode {
  const variable = nodeName(n);
  const props = mapEntries(n.properties, scope, compile);
  const lookups: (readonly [string, Evaluator])[] = props.filter(([k]) => k !== " *");
  for (const c of conjuncts) {
    const eq = propertyEquality(c.expr, variable);
    if (eq !== null && [...freeVariables(eq[1])].every((v) => bound.has(v))) lookups.push([eq[0], compile(eq[1], scope)]);
  }
  return { variable, labels: n.labels, props, lookups };
}

/** `v.key = expr` or `expr = v.key` -> [key, expr]. */
function propertyEquality(e: Expr, variable: string): readonly [string, Expr] | null {
  if (e.kind !== "Comparison" || e.ops.length !== 1 || e.ops[0] !== "=") return null;
  const [l, r] = e.operands;
  if (l === undefined || r === undefined) return null;
  const isProp = (x: Expr) => x.kind === "Property" && x.object.kind === "Variable" && x.object.name === variable;
  if (isProp(l) && l.kind === "Property" && !freeVariables(r).has(variable)) return [l.key, r];
  if (isProp(r) && r.kind === "Property" && !freeVariables(l).has(variable)) return [r.key, l];
  return null;
}

function compileRel(r: RelationshipPattern, scope: ReadonlySet<string>, compile: ScopedCompile, reversed: boolean): MatchRel {
  const varLength = r.varLength === null ? null : { min: r.varLength.min ?? 1, max: r.varLength.max ?? Infinity };
  return { variable: relName(r), types: r.types, direction: r.direction, props: mapEntries(r.properties, scope, compile), varLength, reversed };
}
