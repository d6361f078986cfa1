// Subgraph explorer (#/subgraph/<id>): an item's connected subgraph drawn with cytoscape. Selecting
// a node shows its fields; "Expand" (or a double-click) fetches that item's own subgraph and merges
// it into the drawing; "Open item" goes to the item's page.
import "../graph/console-graph.css";
import { useEffect, useState } from "preact/hooks";
import { EMPTY_GRAPH, mergeGraphs, type GraphData, type GraphNode } from "../graph/graph-model.js";
import { GraphLists } from "../graph/graph-lists.js";
import { GraphView } from "../graph/graph-view.js";
import { loadSubgraph } from "../graph/load-subgraph.js";
import { NodeDetails } from "../graph/node-details.js";
import { subgraphToGraph } from "../graph/subgraph-mapping.js";
import { useStoredNumber } from "../graph/use-stored-number.js";
import { ErrorBanner } from "../ui/error-banner.js";
import { hashWithId } from "../ui/hash-route.js";
import { NeedsDatabase, Page, Panel } from "../ui/page.js";
import type { ScreenProps } from "../ui/screen.js";

const DEFAULT_DEPTH = 2;
const DEFAULT_MAX_SOURCES = 50;

interface Drawing {
  readonly graph: GraphData;
  /** Items whose own subgraph is merged in (the start item included). */
  readonly expanded: ReadonlySet<string>;
  readonly truncated: boolean;
}

const EMPTY_DRAWING: Drawing = { graph: EMPTY_GRAPH, expanded: new Set(), truncated: false };

export function SubgraphScreen(props: ScreenProps) {
  const startId = props.params.id ?? "";
  const [idInput, setIdInput] = useState(startId);
  const [depth, setDepth] = useStoredNumber("context-store.subgraph.depth", DEFAULT_DEPTH, 1, 10);
  const [maxSources, setMaxSources] = useStoredNumber("context-store.subgraph.max-sources", DEFAULT_MAX_SOURCES, 1, 1000);
  const [drawing, setDrawing] = useState<Drawing>(EMPTY_DRAWING);
  const [selected, setSelected] = useState<GraphNode | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const fetchInto = async (id: string, base: Drawing): Promise<void> => {
    if (props.database === null) return;
    setPending(id);
    setError(null);
    try {
      const data = await loadSubgraph(props.api, { database: props.database, collection: props.collection, id, depth, maxSources });
      const graph = mergeGraphs(base.graph, subgraphToGraph(data));
      setDrawing({ graph, expanded: new Set([...base.expanded, id]), truncated: base.truncated || data.is_truncated || data.auxiliary_truncated });
      // The selection follows the node's richer version after a merge.
      setSelected((current) => (current === null ? null : (graph.nodes.find((n) => n.id === current.id) ?? null)));
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(null);
    }
  };

  // A new start item (or scope, or depth) starts a new drawing.
  useEffect(() => {
    setIdInput(startId);
    setDrawing(EMPTY_DRAWING);
    setSelected(null);
    if (startId !== "") void fetchInto(startId, EMPTY_DRAWING);
    // fetchInto reads depth and maxSources of this render
  }, [startId, props.database, props.collection, depth, maxSources]);

  const expand = (node: GraphNode): void => {
    setSelected(node);
    if (node.itemId !== null && pending === null) void fetchInto(node.itemId, drawing);
  };

  const open = (event: Event): void => {
    event.preventDefault();
    const id = idInput.trim();
    if (id !== "") props.navigate(hashWithId("/subgraph", id));
  };

  const { nodes, edges } = drawing.graph;
  const items = nodes.filter((n) => n.kind === "item").length;
  const seedMissing = startId !== "" && pending === null && error === null && drawing.expanded.has(startId) && nodes.length === 0;

  return (
    <Page
      title="Graph explorer"
      subtitle="An item's connected subgraph: items, the people and things they mention, and how they relate."
      testId="screen-subgraph"
    >
      {props.database === null ? (
        <NeedsDatabase />
      ) : (
        <>
          <form class="toolbar" onSubmit={open}>
            <label>
              Item id
              <input data-testid="subgraph-id" value={idInput} placeholder="an item's source id" onInput={(e) => setIdInput(e.currentTarget.value)} size={40} />
            </label>
            <label>
              Depth
              <input data-testid="subgraph-depth" type="number" min={1} max={10} value={depth} onChange={(e) => setDepth(Number(e.currentTarget.value))} />
            </label>
            <label>
              Max items
              <input type="number" min={1} max={1000} value={maxSources} onChange={(e) => setMaxSources(Number(e.currentTarget.value))} />
            </label>
            <button type="submit" class="primary" data-testid="subgraph-open">
              Show graph
            </button>
          </form>
          <ErrorBanner error={error} />
          {seedMissing ? (
            <p class="hint" data-testid="subgraph-empty">
              No item with this id in {props.database}
              {props.collection ? ` / ${props.collection}` : ""} (or it is hidden from this key).
            </p>
          ) : null}
          {nodes.length > 0 ? (
            <p class="muted summary" data-testid="subgraph-summary">
              {items} items, {nodes.length - items} entities, {edges.length} relations
              {drawing.truncated ? " (truncated: raise Max items to see more)" : ""}
              {pending !== null ? " · loading…" : ""}
            </p>
          ) : pending !== null ? (
            <p class="muted">Loading…</p>
          ) : null}
          <div class="graph-layout">
            <div class="graph-main">
              <GraphView nodes={nodes} edges={edges} selectedId={selected?.id ?? null} onSelect={setSelected} onExpand={expand} />
            </div>
            <aside class="graph-side">
              <Panel title="Selected" testId="subgraph-selected">
                <NodeDetails node={selected} hint="Select a node (click it, or choose it in the list) to see its fields. Double-click an item to expand it.">
                  {selected?.itemId ? (
                    <>
                      <button
                        type="button"
                        data-testid="node-expand"
                        disabled={pending !== null || drawing.expanded.has(selected.itemId)}
                        onClick={() => expand(selected)}
                      >
                        {drawing.expanded.has(selected.itemId) ? "Expanded" : "Expand"}
                      </button>
                      <button
                        type="button"
                        class="primary"
                        data-testid="node-open-item"
                        onClick={() => props.navigate(hashWithId("/items", selected.itemId ?? ""))}
                      >
                        Open item
                      </button>
                    </>
                  ) : null}
                </NodeDetails>
              </Panel>
              <Panel testId="subgraph-lists">
                <GraphLists nodes={nodes} edges={edges} selectedId={selected?.id ?? null} onSelect={setSelected} />
              </Panel>
            </aside>
          </div>
        </>
      )}
    </Page>
  );
}
