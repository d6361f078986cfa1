// The cytoscape canvas shared by the subgraph explorer and the Cypher console. It keeps one
// cytoscape instance for its lifetime and applies each new nodes/edges list as a diff, so an
// expansion adds elements beside their neighbours instead of redrawing from scratch.
import type { Core, ElementDefinition, EventObject, NodeSingular } from "cytoscape";
import { useEffect, useRef, useState } from "preact/hooks";
import type { GraphEdge, GraphNode } from "./graph-model.js";
import { shortLabel } from "./graph-model.js";
import { colourOf, GRAPH_STYLE, kindColours } from "./graph-style.js";

export interface GraphViewProps {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** The node drawn as selected; null for none. */
  readonly selectedId?: string | null;
  /** A tap on a node (its model) or on the background (null). */
  readonly onSelect?: (node: GraphNode | null) => void;
  /** A double tap on a node. */
  readonly onExpand?: (node: GraphNode) => void;
  readonly testId?: string;
}

const nodeElement = (node: GraphNode, colours: ReadonlyMap<string, string>): ElementDefinition => ({
  group: "nodes",
  data: { id: node.id, caption: shortLabel(node.label, 28), kind: node.kind, colour: colourOf(colours, node.kind) },
});

const edgeElement = (edge: GraphEdge): ElementDefinition => ({
  group: "edges",
  data: { id: edge.id, source: edge.source, target: edge.target, caption: edge.label },
});

/** The largest zoom a fit may reach: labels stay at their designed size for small graphs. */
const MAX_FIT_ZOOM = 1.3;

/** Adds what is new, removes what is gone, and lays out again when anything was added. */
function applyElements(cy: Core, nodes: readonly GraphNode[], edges: readonly GraphEdge[]): void {
  const wanted = new Set([...nodes.map((n) => n.id), ...edges.map((e) => e.id)]);
  cy.batch(() => {
    cy.elements().forEach((element) => {
      if (!wanted.has(element.id())) element.remove();
    });
  });
  const fresh = nodes.filter((n) => cy.getElementById(n.id).empty());
  const freshEdges = edges.filter((e) => cy.getElementById(e.id).empty());
  if (fresh.length === 0 && freshEdges.length === 0) return;
  const firstDrawing = cy.nodes().empty();
  const colours = kindColours(nodes.map((n) => n.kind));
  cy.add([...fresh.map((n) => nodeElement(n, colours)), ...freshEdges.map(edgeElement)]);
  // A new kind can shift the palette: recolour what was drawn before.
  cy.nodes().forEach((element) => {
    element.data("colour", colourOf(colours, String(element.data("kind"))));
  });
  if (!firstDrawing) {
    // New nodes start on a neighbour that was already placed, so the layout below moves them out
    // from where they were reached and the rest of the drawing stays recognisable.
    for (const node of fresh) {
      const element = cy.getElementById(node.id);
      const placed = element
        .neighborhood()
        .nodes()
        .filter((n) => !fresh.some((f) => f.id === n.id()));
      const anchor = placed.nonempty() ? placed.position() : null;
      if (anchor) element.position({ x: anchor.x + Math.random() * 40 - 20, y: anchor.y + Math.random() * 40 - 20 });
    }
  }
  cy.layout({
    name: "cose",
    animate: false,
    randomize: firstDrawing,
    fit: true,
    padding: 40,
    nodeRepulsion: () => 60_000,
    idealEdgeLength: () => 90,
    nodeOverlap: 20,
    componentSpacing: 80,
  }).run();
  // A small graph fitted to the canvas would be blown up past a readable size.
  if (cy.zoom() > MAX_FIT_ZOOM) {
    cy.zoom(MAX_FIT_ZOOM);
    cy.center();
  }
}

/**
 * Cytoscape injects an inline <style> (its container's `position: relative`) unless an element
 * with its stylesheet id exists. The console's Content-Security-Policy allows only 'self' styles,
 * so the rule lives in console-graph.css and this marker stops the injection.
 */
function claimCytoscapeStylesheet(): void {
  const id = "__________cytoscape_stylesheet";
  if (document.getElementById(id) !== null) return;
  const marker = document.createElement("meta");
  marker.id = id;
  document.head.append(marker);
}

/** The id of the node an event on a "node" selector is about (cytoscape types its target loosely). */
const tappedId = (event: EventObject): string => (event.target as NodeSingular).id();

export function GraphView(props: GraphViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const instance = useRef<Core | null>(null);
  // Handlers are read through a ref so cytoscape's listeners, bound once, call the current ones.
  const current = useRef(props);
  current.current = props;

  // Cytoscape is most of the console's code; it is loaded (a chunk of its own) when a graph is
  // first shown, so the other screens open without it.
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    let cy: Core | null = null;
    let gone = false;
    import("cytoscape").then(
      ({ default: cytoscape }) => {
        if (gone || container.current === null) return;
        claimCytoscapeStylesheet();
        const created = cytoscape({ container: container.current, style: GRAPH_STYLE, minZoom: 0.2, maxZoom: 3, boxSelectionEnabled: false });
        const model = (id: string): GraphNode | undefined => current.current.nodes.find((n) => n.id === id);
        created.on("tap", "node", (event) => {
          const node = model(tappedId(event));
          if (node) current.current.onSelect?.(node);
        });
        created.on("tap", (event) => {
          if (event.target === created) current.current.onSelect?.(null);
        });
        created.on("dbltap", "node", (event) => {
          const node = model(tappedId(event));
          if (node) current.current.onExpand?.(node);
        });
        cy = created;
        instance.current = created;
        setLoaded(true);
      },
      (failure: unknown) => setLoadError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      gone = true;
      instance.current = null;
      cy?.destroy();
    };
  }, []);

  useEffect(() => {
    const cy = instance.current;
    if (cy) applyElements(cy, props.nodes, props.edges);
  }, [loaded, props.nodes, props.edges]);

  useEffect(() => {
    const cy = instance.current;
    if (!cy) return;
    cy.elements(":selected").unselect();
    if (props.selectedId) cy.getElementById(props.selectedId).select();
  }, [loaded, props.selectedId, props.nodes]);

  return (
    <div
      class="graph-canvas"
      ref={container}
      role="img"
      aria-label={`Graph drawing of ${props.nodes.length} nodes and ${props.edges.length} edges; the same nodes and edges are listed beside it`}
      data-testid={props.testId ?? "graph-canvas"}
      data-node-count={props.nodes.length}
      data-edge-count={props.edges.length}
      data-ready={loaded ? "true" : "false"}
    >
      {loadError ? <p class="error-text">The graph drawing could not be loaded ({loadError}); the lists beside it hold the same nodes and edges.</p> : null}
    </div>
  );
}
