// Colours and the cytoscape stylesheet of graph-view. Kinds get a fixed colour when known and a
// stable one from a small palette otherwise (hashed on the kind), so one label keeps its colour
// across queries.
import type { StylesheetJson } from "cytoscape";

const KNOWN: Readonly<Record<string, string>> = { item: "#2563eb", ACTOR: "#059669", SOURCE: "#64748b" };
const PALETTE = ["#7c3aed", "#db2777", "#ea580c", "#0891b2", "#65a30d", "#ca8a04", "#4f46e5", "#be123c"];

export function kindColour(kind: string): string {
  const known = KNOWN[kind];
  if (known !== undefined) return known;
  let hash = 0;
  for (const ch of kind) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? "#64748b";
}

export const GRAPH_STYLE: StylesheetJson = [
  {
    selector: "node",
    style: {
      "background-color": "data(colour)",
      label: "data(caption)",
      color: "#1e293b",
      "font-size": 11,
      "text-valign": "bottom",
      "text-margin-y": 4,
      "text-wrap": "ellipsis",
      "text-max-width": "140px",
      width: 22,
      height: 22,
      "border-width": 2,
      "border-color": "#ffffff",
    },
  },
  { selector: "node[kind = 'item']", style: { shape: "round-rectangle", width: 28, height: 22 } },
  { selector: "node:selected", style: { "border-color": "#f59e0b", "border-width": 4 } },
  {
    selector: "edge",
    style: {
      width: 1.5,
      "line-color": "#94a3b8",
      "target-arrow-color": "#94a3b8",
      "target-arrow-shape": "triangle",
      "curve-style": "bezier",
      label: "data(caption)",
      "font-size": 9,
      color: "#475569",
      "text-rotation": "autorotate",
      "text-background-color": "#ffffff",
      "text-background-opacity": 0.85,
      "text-background-padding": "1px",
    },
  },
  { selector: "edge:selected", style: { "line-color": "#f59e0b", "target-arrow-color": "#f59e0b", width: 3 } },
];
