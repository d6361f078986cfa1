// The route table: each hash route and the screen it shows. Entries with a `nav` label appear in
// the left navigation, in this order, under their section.
import type { FunctionComponent } from "preact";
import { ConnectorDetailScreen } from "./screens/connector-detail.js";
import { ConnectorsScreen } from "./screens/connectors.js";
import { CypherScreen } from "./screens/cypher.js";
import { DatabasesScreen } from "./screens/databases.js";
import { ItemScreen } from "./screens/item.js";
import { ItemsScreen } from "./screens/items.js";
import { QueryScreen } from "./screens/query.js";
import { SubgraphScreen } from "./screens/subgraph.js";
import { UploadScreen } from "./screens/upload.js";
import { WebhooksScreen } from "./screens/webhooks.js";
import type { ScreenProps } from "./ui/screen.js";
import { matchPattern } from "./ui/hash-route.js";

export interface RouteEntry {
  /** `/items/:id`: a `:name` segment becomes `params.name`. */
  readonly pattern: string;
  readonly screen: FunctionComponent<ScreenProps>;
  /** The label in the left navigation; routes without one are reached by links. */
  readonly nav?: string;
  readonly section?: "Data" | "Explore" | "Integrations" | "Settings";
  /** `context`: the screen reads knowledge and memories, so a chosen graph database is refused in its place. */
  readonly needs?: "context";
}

export const routes: readonly RouteEntry[] = [
  { pattern: "/databases", screen: DatabasesScreen, nav: "Databases", section: "Data" },
  { pattern: "/upload", screen: UploadScreen, nav: "Upload", section: "Data", needs: "context" },
  { pattern: "/items", screen: ItemsScreen, nav: "Items", section: "Data", needs: "context" },
  { pattern: "/items/:id", screen: ItemScreen, needs: "context" },
  { pattern: "/query", screen: QueryScreen, nav: "Query playground", section: "Explore", needs: "context" },
  { pattern: "/subgraph", screen: SubgraphScreen, nav: "Graph explorer", section: "Explore", needs: "context" },
  { pattern: "/subgraph/:id", screen: SubgraphScreen, needs: "context" },
  { pattern: "/cypher", screen: CypherScreen, nav: "Cypher console", section: "Explore" },
  { pattern: "/connectors", screen: ConnectorsScreen, nav: "Connectors", section: "Integrations" },
  { pattern: "/connectors/:id", screen: ConnectorDetailScreen },
  { pattern: "/webhooks", screen: WebhooksScreen, nav: "Webhooks", section: "Integrations" },
];

/** Where the console opens when the hash names no route. */
export const DEFAULT_ROUTE = "/databases";

export function resolveRoute(path: string): { entry: RouteEntry; params: Record<string, string> } | null {
  for (const entry of routes) {
    const params = matchPattern(entry.pattern, path);
    if (params) return { entry, params };
  }
  return null;
}
