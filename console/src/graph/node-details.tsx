// The selected node's fields beside the graph, with the screen's actions for it.
import type { ComponentChildren } from "preact";
import type { GraphNode } from "./graph-model.js";

const shown = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

export function NodeDetails(props: { node: GraphNode | null; hint: string; children?: ComponentChildren }) {
  if (props.node === null) {
    return (
      <p class="hint" data-testid="node-details-empty">
        {props.hint}
      </p>
    );
  }
  const entries = Object.entries(props.node.details).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return (
    <div class="node-details" data-testid="node-details" data-node-id={props.node.id}>
      <h3 data-testid="node-details-label">{props.node.label}</h3>
      <p class="muted">{props.node.kind}</p>
      {props.children ? <div class="node-actions">{props.children}</div> : null}
      <dl class="fields">
        {entries.map(([key, value]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{shown(value)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
