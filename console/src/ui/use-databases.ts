import type { ApiClient } from "../../../src/client/api-client.js";
import { usePolling, type Polled } from "./use-polling.js";

export interface DatabaseEntry {
  readonly database: string;
  /** `context` holds knowledge and memories; `graph` only the Cypher graph area's collections. */
  readonly kind: "context" | "graph";
}

/**
 * The organization's databases, for the one database choice the whole console shares: the header
 * picker, the screens that need a context database, and the Cypher console. Asked again every few
 * seconds (a database made elsewhere appears without a reload) and at once after a screen makes one.
 */
export function useDatabases(api: ApiClient): Polled<readonly DatabaseEntry[]> {
  return usePolling(async () => (await api.call(api.raw.GET("/databases"))).databases.map((d) => ({ database: d.database, kind: d.kind })), 5000, [api]);
}
