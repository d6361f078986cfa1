/** The words of the items feature: which corpus an item is in, where it came from, how far its indexing got. */
export type Corpus = "knowledge" | "memory";

export type IndexingStatus = "queued" | "processing" | "graph_creation" | "completed" | "errored";

export type ItemOrigin = "file" | "app" | "memory";
