// The drawn nodes and edges as plain lists beside the canvas: what a screen reader reads and what
// tests assert on (the canvas is pixels). Choosing a node here selects it like a tap on the canvas.
import type { GraphEdge, GraphNode } from "./graph-model.js";
import { shortLabel } from "./graph-model.js";
import { colourOf, kindColours } from "./graph-style.js";

export interface GraphListsProps {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly selectedId?: string | null;
  readonly onSelect?: (node: GraphNode) => void;
}

export function GraphLists(props: GraphListsProps) {
  const labelOf = new Map(props.nodes.map((n) => [n.id, n.label]));
  const colours = kindColours(props.nodes.map((n) => n.kind));
  return (
    <div class="graph-lists">
      <h3>Nodes ({props.nodes.length})</h3>
      <ul class="graph-list" data-testid="graph-node-list">
        {props.nodes.map((node) => (
          <li key={node.id} data-testid="graph-node" data-node-id={node.id} data-kind={node.kind} class={node.id === props.selectedId ? "selected" : undefined}>
            <button type="button" class="link" title={node.label} onClick={() => props.onSelect?.(node)}>
              <span class="swatch" style={{ background: colourOf(colours, node.kind) }} />
              {shortLabel(node.label, 48)}
            </button>
            <span class="muted">{node.kind}</span>
          </li>
        ))}
      </ul>
      <h3>Edges ({props.edges.length})</h3>
      <ul class="graph-list edges" data-testid="graph-edge-list">
        {props.edges.map((edge) => (
          <li key={edge.id} data-testid="graph-edge" data-edge-id={edge.id} data-label={edge.label}>
            <span title={labelOf.get(edge.source)}>{shortLabel(labelOf.get(edge.source) ?? edge.source, 28)}</span>
            <span class="edge-label"> {edge.label} </span>
            <span title={labelOf.get(edge.target)}>{shortLabel(labelOf.get(edge.target) ?? edge.target, 28)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
