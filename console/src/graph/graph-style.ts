// Colours and the cytoscape stylesheet of graph-view. Kinds get a fixed colour when known and a
// stable one from a small palette otherwise (hashed on the kind), so one label keeps its colour
// across queries.
import type { StylesheetJson } from "cytoscape";

const KNOWN: Readonly<Record<string, string>> = { item: "#2563eb", ACTOR: "#059669", SOURCE: "#64748b" };
const PALETTE = ["#d97706", "#7c3aed", "#db2777", "#0891b2", "#65a30d", "#dc2626", "#4f46e5", "#0d9488"];
const OTHER = "#64748b";

/**
 * A colour per kind in one drawing: the known kinds keep theirs, the others (Cypher labels) take the
 * palette in name order, so two labels of one answer never share a colour (up to eight of them) and
 * the canvas and the lists agree.
 */
export function kindColours(kinds: Iterable<string>): ReadonlyMap<string, string> {
  const colours = new Map<string, string>();
  const others = [...new Set(kinds)].filter((k) => KNOWN[k] === undefined).sort();
  for (const [kind, colour] of Object.entries(KNOWN)) colours.set(kind, colour);
  others.forEach((kind, i) => colours.set(kind, PALETTE[i % PALETTE.length] ?? OTHER));
  return colours;
}

export const colourOf = (colours: ReadonlyMap<string, string>, kind: string): string => colours.get(kind) ?? OTHER;

export const GRAPH_STYLE: StylesheetJson = [
  {
    selector: "node",
    style: {
      "background-color": "data(colour)",
      label: "data(caption)",
      color: "#1e293b",
      "font-size": 10,
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
      "font-size": 8,
      color: "#475569",
      "text-rotation": "autorotate",
      "text-background-color": "#ffffff",
      "text-background-opacity": 0.85,
      "text-background-padding": "1px",
    },
  },
  { selector: "edge:selected", style: { "line-color": "#f59e0b", "target-arrow-color": "#f59e0b", width: 3 } },
];
