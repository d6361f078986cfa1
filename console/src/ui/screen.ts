import type { ApiClient } from "../../../src/client/api-client.js";

/** What the shell hands every screen: the signed-in client, the chosen scope, the route's parameters. */
export interface ScreenProps {
  api: ApiClient;
  /** The database picked in the header (shared by every screen); null until one is chosen. */
  database: string | null;
  /** The collection picked in the header; null is the default collection. */
  collection: string | null;
  /** The route's named parameters, decoded (`#/items/<id>` gives `{ id }`). */
  params: Record<string, string>;
  /** Goes to another screen: `navigate("#/items")`. */
  navigate(hash: string): void;
  /** Makes a database the one in the header, the console's one choice (the Databases screen's "Use" button). */
  chooseDatabase(name: string | null): void;
  /** Asks the header's database list again now (after a screen made or deleted a database). */
  refreshDatabases(): void;
}
