import type { Direction } from "../ast/patterns.js";
import { NodeRef, PathValue, RelRef } from "../values/value.js";
import type { Value } from "../values/value.js";
import type { ExecContext } from "./context.js";

export interface ShortestPathSpec {
  readonly types: readonly string[];
  readonly direction: Direction;
  readonly min: number;
  readonly max: number;
}

function* steps(spec: ShortestPathSpec, node: number, ctx: ExecContext): Generator<readonly [number, number]> {
  const store = ctx.store;
  if (spec.direction !== "in") {
    for (const r of store.outgoing(node)) {
      const rec = store.relationship(r);
      if (spec.types.length === 0 || spec.types.includes(rec.type)) yield [r, rec.end];
    }
  }
  if (spec.direction !== "out") {
    for (const r of store.incoming(node)) {
      const rec = store.relationship(r);
      if (spec.types.length === 0 || spec.types.includes(rec.type)) yield [r, rec.start];
    }
  }
}

/**
 * Breadth-first search; with several shortest paths the one whose edges come first in adjacency
 * order wins, which makes the answer deterministic for a given insertion history.
 */
export function shortestPath(spec: ShortestPathSpec, from: number, to: number, ctx: ExecContext): Value {
  if (from === to && spec.min === 0) return new PathValue([new NodeRef(from)], []);
  const parent = new Map<number, readonly [number, number]>();
  const seen = new Set<number>([from]);
  let frontier = [from];
  for (let depth = 1; depth <= spec.max && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const node of frontier) {
      for (const [rel, other] of steps(spec, node, ctx)) {
        ctx.tick();
        if (other === to) {
          parent.set(to, [rel, node]);
          return rebuild(parent, from, to, ctx);
        }
        if (seen.has(other)) continue;
        seen.add(other);
        parent.set(other, [rel, node]);
        next.push(other);
      }
    }
    frontier = next;
  }
  return null;
}

function rebuild(parent: ReadonlyMap<number, readonly [number, number]>, from: number, to: number, _ctx: ExecContext): PathValue {
  const nodes: NodeRef[] = [new NodeRef(to)];
  const rels: RelRef[] = [];
  let current = to;
  // `from === to` with one hop or more means a cycle back to the start; walk back until depth 0.
  do {
    const p = parent.get(current);
    if (p === undefined) break;
    rels.push(new RelRef(p[0]));
    nodes.push(new NodeRef(p[1]));
    current = p[1];
  } while (current !== from);
  return new PathValue(nodes.reverse(), rels.reverse());
}

/** Every path of minimal length, in adjacency order. */
export function allShortestPaths(spec: ShortestPathSpec, from: number, to: number, ctx: ExecContext): Value[] {
  if (from === to && spec.min === 0) return [new PathValue([new NodeRef(from)], [])];
  const depthOf = new Map<number, number>([[from, 0]]);
  const parents = new Map<number, [number, number][]>();
  const targetParents: [number, number][] = [];
  let frontier = [from];
  for (let depth = 1; depth <= spec.max && frontier.length > 0 && targetParents.length === 0; depth++) {
    const next: number[] = [];
    for (const node of frontier) {
      for (const [rel, other] of steps(spec, node, ctx)) {
        ctx.tick();
        if (other === to) {
          targetParents.push([rel, node]);
          continue;
        }
        const d = depthOf.get(other);
        if (d === undefined) {
          depthOf.set(other, depth);
          next.push(other);
          parents.set(other, [[rel, node]]);
        } else if (d === depth) parents.get(other)?.push([rel, node]);
      }
    }
    frontier = next;
  }
  const out: Value[] = [];
  const walk = (node: number, rels: number[], nodes: number[]): void => {
    ctx.tick();
    if (node === from) {
      // The number of shortest paths can grow exponentially with their length.
      ctx.checkLength(out.length + 1, "list");
      out.push(
        new PathValue(
          [...nodes].reverse().map((n) => new NodeRef(n)),
          [...rels].reverse().map((r) => new RelRef(r)),
        ),
      );
      return;
    }
    for (const [rel, prev] of parents.get(node) ?? []) walk(prev, [...rels, rel], [...nodes, prev]);
  };
  for (const [rel, node] of targetParents) walk(node, [rel], [to, node]);
  return out;
}
