// The graph the console draws, independent of where it came from (an item's subgraph, Cypher rows).
// Ids are namespaced by origin ("item:", "entity:", "node:", "rel:") so an item id can never collide
// with an entity id or a Cypher node id in one drawing.

export interface GraphNode {
  readonly id: string;
  readonly label: string;
  /** What the node is: "item", an entity type ("ACTOR", ...), or a Cypher label. Drives its colour. */
  readonly kind: string;
  /** The context item behind the node, when it is one (subgraph item nodes); null otherwise. */
  readonly itemId: string | null;
  readonly details: Readonly<Record<string, unknown>>;
}

export interface GraphEdge {
  readonly id: string;
  readonly source: string;
  readonly target: string;
  readonly label: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export interface GraphData {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
}

export const EMPTY_GRAPH: GraphData = { nodes: [], edges: [] };

/**
 * `base` with what `more` adds. A node or edge already drawn keeps its place in the lists; a node
 * that was drawn as a bare placeholder (an edge endpoint outside the result) takes the richer
 * version. Edges whose endpoints are missing are dropped, so the canvas never gets a dangling edge.
 */
export function mergeGraphs(base: GraphData, more: GraphData): GraphData {
  const nodes = new Map<string, GraphNode>();
  for (const node of [...base.nodes, ...more.nodes]) {
    const known = nodes.get(node.id);
    if (known === undefined || Object.keys(known.details).length < Object.keys(node.details).length) nodes.set(node.id, node);
  }
  const edges = new Map<string, GraphEdge>();
  for (const edge of [...base.edges, ...more.edges]) {
    if (!edges.has(edge.id) && nodes.has(edge.source) && nodes.has(edge.target)) edges.set(edge.id, edge);
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** The node's label for lists: long titles cut so a row stays one line. */
export function shortLabel(label: string, max = 60): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}
