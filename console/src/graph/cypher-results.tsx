// A Cypher answer: its rows as a table and, when they hold nodes or relationships, as a graph.
import { useMemo, useState } from "preact/hooks";
import { rowsToGraph } from "./cypher-mapping.js";
import type { GraphNode } from "./graph-model.js";
import { GraphLists } from "./graph-lists.js";
import { GraphView } from "./graph-view.js";
import { NodeDetails } from "./node-details.js";

type Row = Readonly<Record<string, unknown>>;

export interface CypherAnswer {
  readonly rows: readonly Row[];
  /** The service dropped rows past its cap (X-Result-Truncated). */
  readonly truncated: boolean;
  readonly elapsedMs: number;
}

/** A cell's text: strings as they are, everything else as compact JSON, cut when long. */
function cellText(value: unknown): string {
  const text = typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Column names in first-seen order over all rows (rows of one answer share their RETURN keys). */
function columnsOf(rows: readonly Row[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

export function CypherResults(props: { answer: CypherAnswer }) {
  const { rows } = props.answer;
  const columns = useMemo(() => columnsOf(rows), [rows]);
  const graph = useMemo(() => rowsToGraph(rows), [rows]);
  const [selected, setSelected] = useState<GraphNode | null>(null);
  return (
    <div class="cypher-results" data-testid="cypher-results">
      <p class="muted summary" data-testid="cypher-summary">
        {rows.length} {rows.length === 1 ? "row" : "rows"} in {props.answer.elapsedMs} ms
        {props.answer.truncated ? " (truncated by the service's row cap: page with ORDER BY, SKIP and LIMIT)" : ""}
      </p>
      {graph ? (
        <div class="graph-layout" data-testid="cypher-graph">
          <div class="graph-main">
            <GraphView nodes={graph.nodes} edges={graph.edges} selectedId={selected?.id ?? null} onSelect={setSelected} />
          </div>
          <aside class="graph-side">
            <NodeDetails node={selected} hint="Select a node (click it, or choose it in the list) to see its properties." />
            <GraphLists nodes={graph.nodes} edges={graph.edges} selectedId={selected?.id ?? null} onSelect={setSelected} />
          </aside>
        </div>
      ) : null}
      {rows.length === 0 ? (
        <p class="hint" data-testid="cypher-no-rows">
          No rows. (A write without RETURN answers no rows.)
        </p>
      ) : (
        <div class="table-scroll">
          <table class="table" data-testid="cypher-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={i} data-testid="cypher-row">
                  {columns.map((c) => (
                    <td key={c} class="mono">
                      {cellText(row[c])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
