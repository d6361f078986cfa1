import type { SchemaField } from "../databases/metadata-schema.js";
import type { DatabaseService } from "../databases/service.js";
import { validationError } from "../../platform/errors/app-error.js";
import type { Executor, Store } from "../../platform/store/db.js";
import type { Corpus } from "./item-types.js";
import type { BlobStore } from "./blob-store.js";
import { resolveDatabase, type ResolvedDatabase } from "../databases/tenancy.js";
import { itemNotFound, scopeFor } from "./item-scope.js";
import { ItemStore, type ItemRow } from "./store.js";
import { alignMetadata } from "../ingestion/metadata-align.js";
import type { VectorStore } from "../search/vector-store.js";

/**
 * Items named by database name, for callers that hold no resolved database (connector sync,
 * which works from its connector row); routes resolve at the edge and call the `...In` methods.
 */
export interface ItemAddress {
  orgId: string;
  database: string;
  collection: string | undefined;
  corpus: Corpus;
}

export interface MetadataPatch {
  metadata: Record<string, unknown>;
  additional: Record<string, unknown>;
}

export interface DeleteResultRow {
  id: string;
  deleted: boolean;
  error: string | null;
  error_code?: string;
}

/** Runs inside the delete transaction for every removed item (the graph subsystem plugs in here). */
export type DeleteStage = (tx: Executor, item: ItemRow) => Promise<void>;

/** Items removed per transaction when a whole collection is deleted. */
const COLLECTION_BATCH = 200;

const parse = (json: string): Record<string, unknown> => JSON.parse(json) as Record<string, unknown>;

/** Edits of stored items that need no re-ingestion: metadata merges and deletes. */
export class ContextEditService {
  constructor(
    private readonly store: Store,
    private readonly databases: DatabaseService,
    private readonly blobs: BlobStore,
    private readonly vectors: VectorStore,
    private readonly deleteStages: readonly DeleteStage[],
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Merges keys onto the item's metadata. `metadata` is aligned with the declared schema like
   * at ingestion (declared keys typed, undeclared ones moved to additional_metadata). The
   * row is updated in place, so list filters and queries see the change at once.
   */
  async patchMetadata(
    scope: ResolvedDatabase,
    corpus: Corpus,
    id: string,
    patch: MetadataPatch,
  ): Promise<{ metadata: Record<string, unknown>; additional: Record<string, unknown> }> {
    const schema = JSON.parse(scope.database.metadata_schema) as SchemaField[];
    const aligned = alignMetadata(schema, patch.metadata, patch.additional);
    if (!aligned.ok) throw validationError(aligned.message);
    return this.store.transaction(async (tx) => {
      const items = new ItemStore(tx);
      const item = await items.findBySource(scopeFor(scope, corpus), id);
      if (!item || (item.expires_at !== null && item.expires_at <= this.now())) throw itemNotFound(corpus, id);
      const metadata = { ...parse(item.metadata), ...aligned.metadata };
      const additional = { ...parse(item.additional_metadata), ...aligned.additional };
      await items.setMetadata(item, JSON.stringify(metadata), JSON.stringify(additional), this.now());
      return { metadata, additional };
    });
  }

  /** Removes items with their chunks, postings, vectors and files; unknown ids are reported, not fatal. */
  async delete(at: ItemAddress, ids: readonly string[]): Promise<DeleteResultRow[]> {
    return this.deleteIn(await resolveDatabase(this.databases, { orgId: at.orgId }, at.database, at.collection), at.corpus, ids);
  }

  /**
   * Removes every item of the scope's collection (both corpora), as deleteIn removes one, in
   * transactions of COLLECTION_BATCH items: a large collection never holds one long write lock, and
   * a deletion cut short leaves whole items, finished by the next call. Returns how many went.
   */
  async deleteCollection(scope: ResolvedDatabase): Promise<number> {
    let removed = 0;
    for (;;) {
      const removedKeys: Record<Corpus, number[]> = { knowledge: [], memory: [] };
      const batch = await this.store.transaction(async (tx) => {
        const items = new ItemStore(tx);
        const rows = await items.itemsOfCollection(scope, COLLECTION_BATCH);
        for (const item of rows) {
          removedKeys[item.corpus].push(...(await items.chunkKeys(scope, item.id)));
          for (const stage of this.deleteStages) await stage(tx, item);
          await items.deleteItem(scope, item.id);
          if (item.blob_id) await this.blobs.delete(tx, scope, item.blob_id);
        }
        return rows.length;
      });
      for (const corpus of ["knowledge", "memory"] as const) await this.vectors.indexRemoved(scopeFor(scope, corpus), removedKeys[corpus]);
      removed += batch;
      if (batch < COLLECTION_BATCH) return removed;
    }
  }

  async deleteIn(scope: ResolvedDatabase, corpus: Corpus, ids: readonly string[]): Promise<DeleteResultRow[]> {
    const removedKeys: number[] = [];
    const results = await this.store.transaction(async (tx) => {
      const items = new ItemStore(tx);
      const out: DeleteResultRow[] = [];
      for (const id of ids) {
        const item = await items.findBySource(scopeFor(scope, corpus), id);
        if (!item) {
          const missing = itemNotFound(corpus, id);
          out.push({ id, deleted: false, error: missing.message, error_code: missing.code });
          continue;
        }
        removedKeys.push(...(await items.chunkKeys(scope, item.id)));
        for (const stage of this.deleteStages) await stage(tx, item);
        await items.deleteItem(scope, item.id);
        if (item.blob_id) await this.blobs.delete(tx, scope, item.blob_id);
        out.push({ id, deleted: true, error: null });
      }
      return out;
    });
    await this.vectors.indexRemoved(scopeFor(scope, corpus), removedKeys);
    return results;
  }
}
