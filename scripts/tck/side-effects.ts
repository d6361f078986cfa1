import type { GraphStore } from "../../src/engines/cypher/store/graph-store.js";
import { valueKey } from "../../src/engines/cypher/values/compare.js";

export interface GraphState {
  readonly nodes: ReadonlySet<number>;
  readonly rels: ReadonlySet<number>;
  readonly labels: ReadonlySet<string>;
  readonly properties: ReadonlySet<string>;
}

/**
 * The TCK counts side effects as a difference of graph states: labels are label names present in
 * the graph, properties are (entity, key, value) triples, so a changed value is one + and one -.
 */
export function captureState(store: GraphStore): GraphState {
  const nodes = new Set<number>();
  const rels = new Set<number>();
  const labels = new Set<string>();
  const properties = new Set<string>();
  for (const id of store.allNodes()) {
    nodes.add(id);
    for (const l of store.nodeLabels(id)) labels.add(l);
    for (const [k, v] of store.nodeProperties(id)) properties.add(`n${id}.${k}=${valueKey(v)}`);
  }
  for (const id of store.allRelationships()) {
    rels.add(id);
    for (const [k, v] of store.relProperties(id)) properties.add(`r${id}.${k}=${valueKey(v)}`);
  }
  return { nodes, rels, labels, properties };
}

function minus<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  let n = 0;
  for (const x of a) if (!b.has(x)) n++;
  return n;
}

export function diffStates(before: GraphState, after: GraphState): Record<string, number> {
  return {
    "+nodes": minus(after.nodes, before.nodes),
    "-nodes": minus(before.nodes, after.nodes),
    "+relationships": minus(after.rels, before.rels),
    "-relationships": minus(before.rels, after.rels),
    "+labels": minus(after.labels, before.labels),
    "-labels": minus(before.labels, after.labels),
    "+properties": minus(after.properties, before.properties),
    "-properties": minus(before.properties, after.properties),
  };
}
