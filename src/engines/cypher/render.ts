import type { GraphStore } from "./store/graph-store.js";
import { NodeRef, PathValue, RelRef } from "./values/value.js";
import type { Value } from "./values/value.js";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Renders a value for the HTTP response, following the graph-area table: nodes and relationships
 * become property objects with the added keys (which shadow stored properties of the same name),
 * paths become {nodes, edges}. INTEGER beyond 2^53 loses precision (JSON numbers are doubles);
 * NaN and infinities have no JSON form and render as null. An entity deleted by the same query
 * renders as just its id (plus labels/relation when still known).
 */
function renderValue(store: GraphStore, v: Value): JsonValue {
  if (v === null) return null;
  switch (typeof v) {
    case "boolean":
    case "string":
      return v;
    case "bigint":
      return Number(v);
    case "number":
      return Number.isFinite(v) ? v : null;
    case "object":
    case "function":
    case "symbol":
    case "undefined":
      break;
  }
  if (Array.isArray(v)) return v.map((x) => renderValue(store, x));
  if (v instanceof Map) {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, x] of v) out[k] = renderValue(store, x);
    return out;
  }
  if (v instanceof NodeRef) return renderNode(store, v);
  if (v instanceof RelRef) return renderRel(store, v);
  return renderPath(store, v);
}

function renderNode(store: GraphStore, n: NodeRef): JsonValue {
  if (!store.hasNode(n.id)) return { id: n.id };
  const out: { [key: string]: JsonValue } = {};
  for (const [k, x] of store.nodeProperties(n.id)) out[k] = renderValue(store, x);
  out.id = n.id;
  out.labels = [...store.nodeLabels(n.id)];
  return out;
}

function renderRel(store: GraphStore, r: RelRef): JsonValue {
  if (!store.hasRelationship(r.id)) return { id: r.id };
  const rec = store.relationship(r.id);
  const out: { [key: string]: JsonValue } = {};
  for (const [k, x] of store.relProperties(r.id)) out[k] = renderValue(store, x);
  out.id = r.id;
  out.relation = rec.type;
  out.source_node_id = rec.start;
  out.target_node_id = rec.end;
  return out;
}

function renderPath(store: GraphStore, p: PathValue): JsonValue {
  return { nodes: p.nodes.map((n) => renderNode(store, n)), edges: p.rels.map((r) => renderRel(store, r)) };
}

/** Rows keyed by column name, ready for JSON. */
export function renderRows(store: GraphStore, columns: readonly string[], rows: readonly Record<string, Value>[]): Record<string, JsonValue>[] {
  return rows.map((row) => {
    const out: Record<string, JsonValue> = {};
    for (const c of columns) out[c] = renderValue(store, row[c] ?? null);
    return out;
  });
}
