import type { OrgTenancy } from "../../platform/tenancy.js";
/** The words of the items feature: which corpus an item is in, where it came from, how far its indexing got. */
export type Corpus = "knowledge" | "memory";
/** Both corpora, in the order they are listed and searched. */
export const CORPORA: readonly Corpus[] = ["knowledge", "memory"];

export type IndexingStatus = "queued" | "processing" | "graph_creation" | "completed" | "errored";

export type ItemOrigin = "file" | "app" | "memory";

/** One corpus of one collection of an organization's database: what a chunk, posting, vector or graph row belongs to. */
export interface ContentScope extends OrgTenancy {
  readonly databaseId: string;
  readonly corpus: Corpus;
  readonly collection: string;
}

/** Only the four fields of a content scope: a statement template's values must have one layout whatever object the scope came in. */
export const contentScopeOnly = (s: ContentScope): ContentScope => ({ orgId: s.orgId, databaseId: s.databaseId, corpus: s.corpus, collection: s.collection });

/** A content scope's columns: for inserts, and as a filter with `.where((eb) => eb.and(scopeColumns(s)))`. */
export const scopeColumns = (s: ContentScope) => ({ org_id: s.orgId, database_id: s.databaseId, corpus: s.corpus, collection: s.collection });
