import type { Corpus } from "../items/item-types.js";

export interface GraphContext {
  query_paths: unknown[];
  chunk_relations: unknown[];
  chunk_id_to_group_ids: Record<string, string[]>;
}

export type RetrievedChunkRef = { chunk_uuid: string; item_id: string; source_id: string; collection: string; content: string };

export interface GraphContextRequest {
  orgId: string;
  databaseId: string;
  corpus: Corpus;
  collections: readonly string[];
  queryText: string;
  chunks: readonly RetrievedChunkRef[];
  principals: readonly string[] | null;
  mode: "fast" | "thinking";
  /** Leave out items written by connectors (POST /query without query_apps). */
  excludeConnectorItems: boolean;
}

/** Where the query gets its graph context and thinking mode its connected items (the graph subsystem). */
export interface GraphProvider {
  /**
   * Starts a query's graph context: the query's own part (its entities' paths) begins at once, while
   * the results are retrieved; the function returned adds the part of the chunks retrieved.
   */
  beginGraphContext(request: Omit<GraphContextRequest, "chunks">): (chunks: readonly RetrievedChunkRef[]) => Promise<GraphContext>;
  /** Source ids of items connected to the given ones within a few hops, nearest first. */
  relatedItems(request: {
    orgId: string;
    databaseId: string;
    corpus: Corpus;
    collections: readonly string[];
    sourceIds: readonly string[];
    principals: readonly string[] | null;
    limit: number;
    excludeConnectorItems: boolean;
  }): Promise<string[]>;
}

export const emptyGraphContext = (): GraphContext => ({ query_paths: [], chunk_relations: [], chunk_id_to_group_ids: {} });
