import { runtimeTypeError } from "../errors.js";
import { cypherEquals } from "../values/compare.js";
import { NodeRef, PathValue, RelRef, typeName } from "../values/value.js";
import type { PropertyValue, Value } from "../values/value.js";
import type { ExecContext, Evaluator, Row } from "./context.js";
import type { MatchNode, MatchProgram, MatchRel, MatchStep } from "./match-program.js";

/**
 * Runs a match program against one input row, yielding every extended row. Relationships are
 * unique within one program (openCypher relationship isomorphism), tracked in `used`.
 */
export function* runMatch(program: MatchProgram, row: Row, ctx: ExecContext): Generator<Row> {
  for (const f of program.preFilters) if (f(row, ctx) !== true) return;
  yield* runSteps(program.steps, 0, { ...row }, new Set(), ctx);
}

function* runSteps(steps: readonly MatchStep[], i: number, row: Row, used: Set<number>, ctx: ExecContext): Generator<Row> {
  const step = steps[i];
  if (step === undefined) {
    yield { ...row };
    return;
  }
  ctx.tick();
  switch (step.op) {
    case "node":
      for (const id of nodeCandidates(step.node, row, ctx)) {
        if (!nodeMatches(step.node, id, row, ctx)) continue;
        const prev = row[step.node.variable];
        row[step.node.variable] = prev instanceof NodeRef ? prev : new NodeRef(id);
        if (passes(step.filters, row, ctx)) yield* runSteps(steps, i + 1, row, used, ctx);
        restore(row, step.node.variable, prev);
      }
      return;
    case "expand":
      yield* expand(steps, i, step.rel, step.to, step.filters, row, used, ctx);
      return;
    case "path": {
      row[step.variable] = buildPath(step, row, ctx);
      if (passes(step.filters, row, ctx)) yield* runSteps(steps, i + 1, row, used, ctx);
      delete row[step.variable];
      return;
    }
  }
}

function restore(row: Row, variable: string, prev: Value | undefined): void {
  if (prev === undefined) delete row[variable];
  else row[variable] = prev;
}

function passes(filters: readonly Evaluator[], row: Row, ctx: ExecContext): boolean {
  for (const f of filters) if (f(row, ctx) !== true) return false;
  return true;
}

function nodeCandidates(node: MatchNode, row: Row, ctx: ExecContext): Iterable<number> {
  const bound = row[node.variable];
  if (bound !== undefined) {
    if (bound === null) return [];
    if (!(bound instanceof NodeRef)) throw runtimeTypeError("VariableTypeConflict", `${node.variable} is ${typeName(bound)}, not a node`);
    return ctx.store.hasNode(bound.id) ? [bound.id] : [];
  }
  const label = node.labels[0];
  if (label !== undefined) {
    for (const [key, evaluate] of node.lookups) {
      const v = evaluate(row, ctx);
      if (v === null) return [];
      const hits = ctx.store.indexLookup({ entity: "node", token: label, property: key }, v as PropertyValue);
      if (hits !== null) return [...hits];
    }
    return [...ctx.store.nodesByLabel(label)];
  }
  return [...ctx.store.allNodes()];
}

function propsMatch(props: readonly (readonly [string, Evaluator])[], read: (key: string) => PropertyValue | undefined, row: Row, ctx: ExecContext): boolean {
  for (const [key, evaluate] of props) {
    const stored = read(key);
    if (stored === undefined) return false;
    if (cypherEquals(stored, evaluate(row, ctx)) !== true) return false;
  }
  return true;
}

function nodeMatches(node: MatchNode, id: number, row: Row, ctx: ExecContext): boolean {
  const store = ctx.store;
  for (const l of node.labels) if (!store.nodeHasLabel(id, l)) return false;
  return propsMatch(node.props, (k) => store.nodeProperty(id, k), row, ctx);
}

function relMatches(rel: MatchRel, id: number, row: Row, ctx: ExecContext): boolean {
  const store = ctx.store;
  if (rel.types.length > 0 && !rel.types.includes(store.relationship(id).type)) return false;
  return propsMatch(rel.props, (k) => store.relProperty(id, k), row, ctx);
}

/** Relationships leaving `node` in the pattern direction, with the node reached by each. */
function* neighbours(rel: MatchRel, node: number, ctx: ExecContext): Generator<readonly [number, number]> {
  const store = ctx.store;
  if (rel.direction !== "in") {
    for (const r of [...store.outgoing(node)]) yield [r, store.relationship(r).end];
  }
  if (rel.direction !== "out") {
    for (const r of [...store.incoming(node)]) {
      const rec = store.relationship(r);
      // A self-loop was already produced by the outgoing side of an undirected pattern.
      if (rel.direction === "both" && rec.start === rec.end) continue;
      yield [r, rec.start];
    }
  }
}

function* expand(
  steps: readonly MatchStep[],
  i: number,
  rel: MatchRel,
  to: MatchNode,
  filters: readonly Evaluator[],
  row: Row,
  used: Set<number>,
  ctx: ExecContext,
): Generator<Row> {
  const prevStep = steps[i - 1];
  const fromVar = prevStep?.op === "node" ? prevStep.node.variable : prevStep?.op === "expand" ? prevStep.to.variable : undefined;
  const from = fromVar === undefined ? undefined : row[fromVar];
  if (!(from instanceof NodeRef)) return;
  const boundRel = row[rel.variable];
  const boundTo = row[to.variable];
  if (boundTo === null) return;
  if (rel.varLength !== null) {
    for (const [path, end] of varLengthPaths(rel, from.id, row, used, ctx)) {
      if (boundTo !== undefined && !(boundTo instanceof NodeRef && boundTo.id === end)) continue;
      const ordered = rel.reversed ? [...path].reverse() : path;
      if (boundRel !== undefined && !sameRelList(boundRel, ordered)) continue;
      if (!nodeMatches(to, end, row, ctx)) continue;
      row[rel.variable] = ordered.map((id) => new RelRef(id));
      if (boundTo === undefined) row[to.variable] = new NodeRef(end);
      for (const r of path) used.add(r);
      if (passes(filters, row, ctx)) yield* runSteps(steps, i + 1, row, used, ctx);
      for (const r of path) used.delete(r);
      restore(row, rel.variable, boundRel);
      restore(row, to.variable, boundTo);
    }
    return;
  }
  if (boundRel === null) return;
  for (const [r, end] of neighbours(rel, from.id, ctx)) {
    if (used.has(r)) continue;
    if (boundRel !== undefined && !(boundRel instanceof RelRef && boundRel.id === r)) continue;
    if (boundTo !== undefined && !(boundTo instanceof NodeRef && boundTo.id === end)) continue;
    if (!relMatches(rel, r, row, ctx) || !nodeMatches(to, end, row, ctx)) continue;
    if (boundRel === undefined) row[rel.variable] = new RelRef(r);
    if (boundTo === undefined) row[to.variable] = new NodeRef(end);
    used.add(r);
    if (passes(filters, row, ctx)) yield* runSteps(steps, i + 1, row, used, ctx);
    used.delete(r);
    restore(row, rel.variable, boundRel);
    restore(row, to.variable, boundTo);
  }
}

function sameRelList(bound: Value, path: readonly number[]): boolean {
  return Array.isArray(bound) && bound.length === path.length && bound.every((r, k) => r instanceof RelRef && r.id === path[k]);
}

/** Depth-first enumeration of relationship chains with min..max hops, honouring uniqueness. */
function* varLengthPaths(rel: MatchRel, start: number, row: Row, used: Set<number>, ctx: ExecContext): Generator<readonly [number[], number]> {
  const { min, max } = rel.varLength ?? { min: 1, max: 1 };
  const path: number[] = [];
  const local = new Set<number>();
  function* walk(node: number): Generator<readonly [number[], number]> {
    ctx.tick();
    if (path.length >= min) yield [[...path], node];
    if (path.length >= max) return;
    for (const [r, next] of neighbours(rel, node, ctx)) {
      if (used.has(r) || local.has(r)) continue;
      if (!relMatches(rel, r, row, ctx)) continue;
      path.push(r);
      local.add(r);
      yield* walk(next);
      path.pop();
      local.delete(r);
    }
  }
  yield* walk(start);
}

function buildPath(step: Extract<MatchStep, { op: "path" }>, row: Row, ctx: ExecContext): PathValue {
  const first = row[step.nodes[0] ?? ""];
  if (!(first instanceof NodeRef)) throw new Error("path start is not bound");
  const nodes: NodeRef[] = [first];
  const rels: RelRef[] = [];
  let current = first.id;
  step.rels.forEach((relVar, k) => {
    const value = row[relVar] ?? null;
    const hops = Array.isArray(value) ? value : [value];
    // Intermediate nodes of a variable-length hop are recovered from the relationship endpoints.
    for (const h of hops) {
      if (!(h instanceof RelRef)) continue;
      const rec = ctx.store.relationship(h.id);
      current = rec.start === current ? rec.end : rec.start;
      rels.push(h);
      nodes.push(new NodeRef(current));
    }
    const next = row[step.nodes[k + 1] ?? ""];
    if (next instanceof NodeRef) nodes[nodes.length - 1] = next;
  });
  return new PathValue(nodes, rels);
}
