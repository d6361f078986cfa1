import type { GraphStore } from "../../src/engines/cypher/store/graph-store.js";
import { NodeRef, PathValue, RelRef } from "../../src/engines/cypher/values/value.js";
import type { Value } from "../../src/engines/cypher/values/value.js";
import type { Expected } from "./tck-values.js";

/**
 * Expected and actual values are compared through one canonical text form: map keys and labels
 * sorted, floats at 15 significant digits, and (when asked) list elements sorted.
 */
export interface CanonicalOptions {
  readonly unorderedLists: boolean;
}

function float(v: number): string {
  if (Number.isNaN(v)) return "f:NaN";
  if (!Number.isFinite(v)) return v > 0 ? "f:Inf" : "f:-Inf";
  return `f:${Number(v.toPrecision(15))}`;
}

function list(items: string[], o: CanonicalOptions): string {
  return `[${(o.unorderedLists ? [...items].sort() : items).join(",")}]`;
}

function entries(pairs: (readonly [string, string])[]): string {
  return `{${[...pairs]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, v]) => `${k}:${v}`)
    .join(",")}}`;
}

export function canonicalExpected(e: Expected, o: CanonicalOptions): string {
  switch (e.kind) {
    case "null":
      return "null";
    case "bool":
      return String(e.value);
    case "int":
      return `i:${e.value}`;
    case "float":
      return float(e.value);
    case "string":
      return `s:${JSON.stringify(e.value)}`;
    case "list":
      return list(
        e.items.map((i) => canonicalExpected(i, o)),
        o,
      );
    case "map":
      return entries(e.entries.map(([k, v]) => [k, canonicalExpected(v, o)] as const));
    case "node":
      return `(${[...e.labels].sort().join(":")}${entries(e.props.map(([k, v]) => [k, canonicalExpected(v, o)] as const))})`;
    case "rel":
      return `[${e.type}${entries(e.props.map(([k, v]) => [k, canonicalExpected(v, o)] as const))}]`;
    case "path":
      return `<${canonicalExpected(e.start, o)}${e.hops
        .map((h) => `${h.forward ? "-" : "<-"}${canonicalExpected(h.rel, o)}${h.forward ? "->" : "-"}${canonicalExpected(h.node, o)}`)
        .join("")}>`;
  }
}

export function canonicalActual(store: GraphStore, v: Value, o: CanonicalOptions): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return String(v);
    case "bigint":
      return `i:${v}`;
    case "number":
      return float(v);
    case "string":
      return `s:${JSON.stringify(v)}`;
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  if (Array.isArray(v))
    return list(
      v.map((i) => canonicalActual(store, i, o)),
      o,
    );
  if (v instanceof Map) return entries([...v].map(([k, x]) => [k, canonicalActual(store, x, o)] as const));
  if (v instanceof NodeRef) return node(store, v, o);
  if (v instanceof RelRef) return rel(store, v, o);
  return path(store, v, o);
}

function node(store: GraphStore, n: NodeRef, o: CanonicalOptions): string {
  if (!store.hasNode(n.id)) return "(deleted)";
  const props = [...store.nodeProperties(n.id)].map(([k, x]) => [k, canonicalActual(store, x, o)] as const);
  return `(${[...store.nodeLabels(n.id)].sort().join(":")}${entries(props)})`;
}

function rel(store: GraphStore, r: RelRef, o: CanonicalOptions): string {
  if (!store.hasRelationship(r.id)) return "[deleted]";
  const props = [...store.relProperties(r.id)].map(([k, x]) => [k, canonicalActual(store, x, o)] as const);
  return `[${store.relationship(r.id).type}${entries(props)}]`;
}

function path(store: GraphStore, p: PathValue, o: CanonicalOptions): string {
  let out = `<${node(store, p.nodes[0] ?? new NodeRef(-1), o)}`;
  p.rels.forEach((r, i) => {
    const from = p.nodes[i];
    const forward = store.hasRelationship(r.id) && store.relationship(r.id).start === from?.id;
    const to = p.nodes[i + 1] ?? new NodeRef(-1);
    out += `${forward ? "-" : "<-"}${rel(store, r, o)}${forward ? "->" : "-"}${node(store, to, o)}`;
  });
  return `${out}>`;
}

/** TCK parameter values are plain data; convert them to engine values. */
export function expectedToValue(e: Expected): Value {
  switch (e.kind) {
    case "null":
      return null;
    case "bool":
    case "int":
    case "float":
    case "string":
      return e.value;
    case "list":
      return e.items.map(expectedToValue);
    case "map":
      return new Map(e.entries.map(([k, v]) => [k, expectedToValue(v)]));
    case "node":
    case "rel":
    case "path":
      throw new Error("graph values cannot be parameters");
  }
}
