// Finds the nodes, relationships and paths in Cypher result rows (as the graph area renders them:
// a node is its properties plus `id` and `labels`; a relationship its properties plus `id`,
// `relation`, `source_node_id`, `target_node_id`; a path `{nodes, edges}`), wherever they sit in
// a row, inside lists and maps too, so a result that holds graph values can also be drawn.
import type { GraphData, GraphEdge, GraphNode } from "./graph-model.js";
import { mergeGraphs } from "./graph-model.js";

type Json = Readonly<Record<string, unknown>>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === "string" || typeof value === "number";

function asNode(value: Json): GraphNode | null {
  const labels = value.labels;
  if (!isId(value.id) || !Array.isArray(value.labels)) return null;
  const names = labels as unknown[];
  const kind = typeof names[0] === "string" ? names[0] : "node";
  const caption = [value.name, value.title, value.label].find((v): v is string => typeof v === "string" && v !== "");
  return { id: `node:${value.id}`, label: caption ?? `${kind} #${value.id}`, kind, itemId: null, details: value };
}

function asRelationship(value: Json): GraphEdge | null {
  if (!isId(value.id) || typeof value.relation !== "string" || !isId(value.source_node_id) || !isId(value.target_node_id)) return null;
  return { id: `rel:${value.id}`, source: `node:${value.source_node_id}`, target: `node:${value.target_node_id}`, label: value.relation, details: value };
}

/** A relationship whose endpoints the rows do not return is drawn between placeholder nodes. */
function placeholder(nodeId: string): GraphNode {
  return { id: nodeId, label: `#${nodeId.slice("node:".length)}`, kind: "node", itemId: null, details: {} };
}

function collect(value: unknown, nodes: GraphNode[], edges: GraphEdge[], depth: number): void {
  if (depth > 50) return;
  if (Array.isArray(value)) {
    for (const entry of value) collect(entry, nodes, edges, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  const node = asNode(value);
  if (node) return void nodes.push(node);
  const edge = asRelationship(value);
  if (edge) return void edges.push(edge);
  for (const entry of Object.values(value)) collect(entry, nodes, edges, depth + 1);
}

/** The graph in the rows, or null when they hold no node and no relationship. */
export function rowsToGraph(rows: readonly Json[]): GraphData | null {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const row of rows) collect(row, nodes, edges, 0);
  if (nodes.length === 0 && edges.length === 0) return null;
  const known = new Set(nodes.map((n) => n.id));
  const missing = [...new Set(edges.flatMap((e) => [e.source, e.target]))].filter((id) => !known.has(id)).map(placeholder);
  return mergeGraphs({ nodes: [...missing, ...nodes], edges: [] }, { nodes: [], edges });
}
