import type { Corpus, IndexingStatus, ItemOrigin } from "./item-types.js";

/*
 * Rows of the tables the items feature owns (items, chunks, postings, vectors, file blobs).
 * Timestamps are epoch milliseconds and JSON columns are text on both backends.
 */

export interface ContextItemsTable {
  id: string;
  org_id: string;
  database_id: string;
  collection: string;
  corpus: Corpus;
  source_id: string;
  /** Bumped by every upsert; pipeline jobs of older generations stop without writing. */
  generation: number;
  origin: ItemOrigin;
  title: string;
  type: string;
  description: string | null;
  note: string | null;
  url: string | null;
  item_timestamp: number | null;
  metadata: string;
  additional_metadata: string;
  relations: string;
  /** JSON array of principals, or null for unrestricted. */
  acl: string | null;
  app_kind: string | null;
  app_provider: string | null;
  app_external_id: string | null;
  thread_id: string | null;
  parent_id: string | null;
  /** JSON of what was ingested (app item or memory); files keep their bytes in a blob. */
  content: string | null;
  file_name: string | null;
  file_mime: string | null;
  /** SHA-256 (hex) of an uploaded file's bytes; null for other items and files stored before it existed. */
  content_hash: string | null;
  blob_id: string | null;
  infer: number;
  inferred_content: string | null;
  custom_instructions: string | null;
  user_name: string | null;
  expires_at: number | null;
  status: IndexingStatus;
  error_code: string | null;
  message: string | null;
  chunk_count: number;
  created_at: number;
  updated_at: number;
  /** The connector that wrote this item (POST /query includes these only with query_apps). */
  connector_id: string | null;
}

export interface ContextChunksTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  /** Assigned by the store on insert (see Schema in platform/store/schema.ts). */
  chunk_key: number;
  chunk_uuid: string;
  item_id: string;
  database_id: string;
  collection: string;
  corpus: Corpus;
  position: number;
  content: string;
  section_path: string;
  page: number | null;
  unit: string | null;
  token_count: number;
  term_count: number;
  /**
   * The chunk's BM25 postings: a JSON object of term to frequency (`chunk-terms.ts`), read only
   * to build the in-process indexes (migration 0022). Null for none.
   */
  terms: string | null;
}

export interface ContextVectorsTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  chunk_key: number;
  database_id: string;
  corpus: Corpus;
  collection: string;
  dims: number;
  /** SQLite: little-endian f32 BLOB; PostgreSQL: pgvector text form on write. */
  embedding: Uint8Array | string;
}

export interface BlobsTable {
  /** The owning organization (every tenant table carries it; see migration 0011). */
  org_id: string;
  id: string;
  database_id: string;
  size: number;
  data: Uint8Array | null;
  created_at: number;
}
