// One item's subgraph through the public API. It always uses GET /context/subgraph?id=, the form
// the API offers for every id, including ids with a literal "/" that the path form cannot carry.
import type { ApiClient } from "../../../src/client/api-client.js";
import type { SubgraphData } from "./subgraph-mapping.js";

export interface SubgraphQuery {
  readonly database: string;
  readonly collection: string | null;
  readonly id: string;
  readonly depth: number;
  readonly maxSources: number;
}

export async function loadSubgraph(api: ApiClient, q: SubgraphQuery): Promise<SubgraphData> {
  return api.call(
    api.raw.GET("/context/subgraph", {
      params: { query: { database: q.database, id: q.id, depth: q.depth, max_sources: q.maxSources, ...(q.collection ? { collection: q.collection } : {}) } },
    }),
  );
}
