import type { GraphContextProvider } from "../context-graph/index.js";
import type { GraphProvider } from "./graph-provider-contract.js";

/** Adapts the graph subsystem to what the query needs: context as-is, related items as source ids. */
export function graphProviderOf(graph: GraphContextProvider): GraphProvider {
  return {
    beginGraphContext: (request) => graph.begin(request),
    async relatedItems({ orgId, databaseId, corpus, collections, sourceIds, principals, limit, excludeConnectorItems }) {
      const out: string[] = [];
      for (const collection of collections) {
        const related = await graph.relatedItems({ orgId, databaseId, corpus, collection, sourceIds, principals, limit, excludeConnectorItems });
        for (const r of related) if (!out.includes(r.source_id)) out.push(r.source_id);
      }
      return out.slice(0, limit);
    },
  };
}
