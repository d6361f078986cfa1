import { nameProblem, normalizeName } from "../../platform/util/identifiers.js";
import { newId } from "../../platform/util/ids.js";
import type { SchemaField } from "../databases/metadata-schema.js";
import { defaultCollectionOf, type DatabaseService } from "../databases/service.js";
import { DatabaseStore } from "../databases/store.js";
import { resolveDatabase, type ResolvedDatabase } from "../databases/tenancy.js";
import { IngestStore } from "./store.js";
import { validationError } from "../../platform/errors/app-error.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { Executor, Store } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import type { BlobStore } from "../items/blob-store.js";
import type { DraftResult, ItemDraft } from "./ingest-input.js";
import { ItemStore, type ItemRow, type ItemScope } from "../items/store.js";
import { alignMetadata, systemMetadataOf } from "./metadata-align.js";
import type { VectorScope, VectorStore } from "../search/vector-store.js";

/**
 * An ingest request naming its database, for callers that hold no resolved database (connector
 * sync works from its connector row); routes resolve at the edge and call `ingestInto`.
 */
export interface IngestRequest extends IngestItems {
  orgId: string;
  database: string;
}

/** What an ingest call stores, in a database already resolved. */
export interface IngestItems {
  collection: string | undefined;
  corpus: Corpus;
  upsert: boolean;
  /** Store a file again even when the same bytes are already in the collection (no id given). */
  allowDuplicates: boolean;
  drafts: DraftResult[];
  metadata: Record<string, unknown>;
  additionalMetadata: Record<string, unknown>;
  /**
   * Runs inside the transaction that stores the items (after them), so a caller's own rows
   * (a connector's checkpoint and object ledger) commit exactly when the items do.
   */
  afterWrite?: (tx: Executor) => Promise<void>;
}

export interface IngestResultRow {
  id: string;
  /** duplicate: the same file bytes are stored in this collection already, as item `id`; nothing new was stored. */
  status: "queued" | "failed" | "duplicate";
  /** The uploaded file this row answers for (files only). */
  file_name?: string;
  infer?: boolean;
  error_code?: string;
  message?: string;
}

export interface IngestOutcome {
  success: boolean;
  message: string;
  results: IngestResultRow[];
  success_count: number;
  failed_count: number;
  /** Files answered with an already stored item (counted in success_count). */
  duplicate_count: number;
}

const COLLECTION = { test: (name: string): boolean => nameProblem(name) === null };

type Aligned = { metadata: Record<string, unknown>; additional: Record<string, unknown> };
const scopeKey = (s: ItemScope): string => `${s.corpus}|${s.collection}`;

/** Accepts ingest requests: validates against the database, stores items and enqueues their pipeline jobs. */
export class IngestService {
  constructor(
    private readonly store: Store,
    private readonly queue: JobQueue,
    private readonly databases: DatabaseService,
    private readonly blobs: BlobStore,
    private readonly vectors: VectorStore,
    private readonly now: () => number = Date.now,
  ) {}

  async ingest(req: IngestRequest): Promise<IngestOutcome> {
    return this.ingestInto(await resolveDatabase(this.databases, { orgId: req.orgId }, req.database), req);
  }

  async ingestInto(target: ResolvedDatabase, req: IngestItems): Promise<IngestOutcome> {
    const database = target.database;
    const schema = JSON.parse(database.metadata_schema) as SchemaField[];
    const top = alignMetadata(schema, req.metadata, req.additionalMetadata);
    if (!top.ok) throw validationError(top.message);
    if (req.collection !== undefined && !COLLECTION.test(req.collection)) throw validationError("invalid collection name");

    const results: IngestResultRow[] = [];
    const replacedKeys: Array<{ scope: VectorScope; keys: number[] }> = [];
    const accepted: Array<{ draft: ItemDraft; aligned: Aligned; scope: ItemScope; outcome: IngestResultRow }> = [];
    for (const result of req.drafts) {
      if (!result.ok) {
        const fileName = result.fileName !== undefined ? { file_name: result.fileName } : {};
        results.push({ id: result.id, status: "failed", ...fileName, error_code: result.code, message: result.message });
        continue;
      }
      const draft = result.draft;
      const aligned = alignMetadata(schema, { ...top.metadata, ...draft.metadata }, { ...top.additional, ...draft.additional }, systemMetadataOf(draft));
      if (!aligned.ok) {
        results.push({ id: draft.sourceId, status: "failed", ...fileNameOf(draft), error_code: "VALIDATION_ERROR", message: aligned.message });
        continue;
      }
      const collection = normalizeName(draft.collection ?? req.collection ?? defaultCollectionOf(database));
      if (!COLLECTION.test(collection)) {
        results.push({ id: draft.sourceId, status: "failed", ...fileNameOf(draft), error_code: "INVALID_INPUT", message: "invalid collection name" });
        continue;
      }
      const outcome: IngestResultRow = {
        id: draft.sourceId,
        status: "queued",
        ...fileNameOf(draft),
        ...(draft.corpus === "memory" ? { infer: draft.infer } : {}),
      };
      results.push(outcome);
      accepted.push({ draft, aligned, scope: { orgId: target.orgId, databaseId: target.databaseId, corpus: draft.corpus, collection }, outcome });
    }
    await this.store.transaction(async (tx) => {
      const items = new ItemStore(tx);
      const dbs = new DatabaseStore(tx);
      // Existing items are looked up per scope in one query, new ones inserted in multi-row
      // statements and their jobs enqueued in one: a 1,000-item call is a few dozen statements.
      const existing = new Map<string, ItemRow>();
      const byScope = new Map<string, { scope: ItemScope; ids: string[] }>();
      for (const a of accepted) {
        const key = scopeKey(a.scope);
        const group = byScope.get(key) ?? { scope: a.scope, ids: [] };
        group.ids.push(a.draft.sourceId);
        byScope.set(key, group);
      }
      for (const [key, { scope, ids }] of byScope) {
        await dbs.ensureCollection(database, scope.collection, this.now());
        for (const [sourceId, row] of await items.findBySources(scope, ids)) existing.set(`${key}|${sourceId}`, row);
      }
      const sameBytes = await this.storedFiles(tx, items, req.allowDuplicates ? [] : accepted);
      const inserts: ItemRow[] = [];
      const queued: ItemRow[] = [];
      for (const { draft, aligned, scope, outcome } of accepted) {
        const hashKey = dedupeKey(scope, draft, req.allowDuplicates);
        const stored = hashKey !== null ? sameBytes.get(hashKey) : undefined;
        if (stored) {
          Object.assign(outcome, { id: stored.source_id, status: "duplicate" });
          continue;
        }
        const key = `${scopeKey(scope)}|${draft.sourceId}`;
        const previous = existing.get(key);
        if (previous && !req.upsert) {
          delete outcome.infer;
          Object.assign(outcome, { status: "failed", error_code: "ITEM_ALREADY_EXISTS", message: "an item with this id exists and upsert is false" });
          continue;
        }
        const row = this.rowOf(scope, draft, aligned, previous);
        if (draft.file) {
          row.blob_id = newId();
          await this.blobs.put(tx, row.blob_id, database, draft.file.bytes);
        }
        if (previous) {
          // The same id twice in one call: the earlier one must be stored before it is replaced.
          if (inserts.some((i) => i.id === previous.id)) await items.insertMany(inserts.splice(0));
          replacedKeys.push({
            scope: { orgId: target.orgId, databaseId: target.databaseId, corpus: previous.corpus, collection: previous.collection },
            keys: await items.chunkKeys(target, previous.id),
          });
          await items.deleteChunks(target, previous.id);
          if (previous.blob_id) await this.blobs.delete(tx, target, previous.blob_id);
          await items.replace(row);
        } else {
          inserts.push(row);
        }
        existing.set(key, row);
        if (hashKey !== null) sameBytes.set(hashKey, row);
        queued.push(row);
      }
      await items.insertMany(inserts);
      await this.queue.enqueueMany(
        "ingest.item",
        queued.map((row) => ({ payload: { itemId: row.id, generation: row.generation }, dedupeKey: ingestJobKey(row.id, row.generation) })),
        { executor: tx },
      );
      if (req.afterWrite) await req.afterWrite(tx);
    });
    for (const r of replacedKeys) await this.vectors.indexRemoved(r.scope, r.keys);
    const queuedCount = results.filter((r) => r.status === "queued").length;
    const duplicates = results.filter((r) => r.status === "duplicate").length;
    const ok = queuedCount + duplicates;
    return {
      success: ok > 0 || results.length === 0,
      message:
        `${queuedCount} item(s) queued for indexing, ` +
        (duplicates > 0 ? `${duplicates} already stored (same file in the collection; allow_duplicates=true stores it again), ` : "") +
        `${results.length - ok} failed`,
      results,
      success_count: ok,
      failed_count: results.length - ok,
      duplicate_count: duplicates,
    };
  }

  /**
   * Stored files of the request's scopes with the same bytes as its unnamed files, keyed by
   * dedupeKey. On PostgreSQL the database is locked for the rest of the transaction first, so two
   * concurrent uploads of one file cannot both miss the other (SQLite's BEGIN IMMEDIATE already
   * serialises them).
   */
  private async storedFiles(tx: Executor, items: ItemStore, accepted: ReadonlyArray<{ draft: ItemDraft; scope: ItemScope }>): Promise<Map<string, ItemRow>> {
    const found = new Map<string, ItemRow>();
    const byScope = new Map<string, { scope: ItemScope; hashes: string[] }>();
    for (const { draft, scope } of accepted) {
      if (dedupeKey(scope, draft, false) === null || draft.contentHash === null) continue;
      const group = byScope.get(scopeKey(scope)) ?? { scope, hashes: [] };
      group.hashes.push(draft.contentHash);
      byScope.set(scopeKey(scope), group);
    }
    const first = byScope.values().next();
    if (first.done) return found;
    await new IngestStore(tx, this.store.backend).lockFileUploads(first.value.scope);
    for (const { scope, hashes } of byScope.values()) {
      for (const [hash, row] of await items.findByContentHashes(scope, hashes)) found.set(`${scopeKey(scope)}|${hash}`, row);
    }
    return found;
  }

  private rowOf(scope: ItemScope, d: ItemDraft, aligned: Aligned, existing: ItemRow | undefined): ItemRow {
    const at = this.now();
    return {
      content_hash: d.contentHash,
      id: existing?.id ?? newId(),
      org_id: scope.orgId,
      database_id: scope.databaseId,
      collection: scope.collection,
      corpus: d.corpus,
      source_id: d.sourceId,
      generation: (existing?.generation ?? 0) + 1,
      origin: d.origin,
      title: d.title,
      type: d.type,
      description: d.description,
      note: d.note,
      url: d.url,
      item_timestamp: d.timestamp ?? at,
      metadata: JSON.stringify(aligned.metadata),
      additional_metadata: JSON.stringify(aligned.additional),
      relations: JSON.stringify({ ids: d.relationIds }),
      acl: d.acl ? JSON.stringify(d.acl) : null,
      app_kind: d.app?.kind ?? null,
      app_provider: d.app?.provider ?? null,
      app_external_id: d.app?.externalId ?? null,
      thread_id: d.app?.threadId ?? null,
      parent_id: d.app?.parentId ?? null,
      content: d.content,
      file_name: d.file?.name ?? null,
      file_mime: d.file?.mime ?? null,
      blob_id: null,
      infer: d.infer ? 1 : 0,
      inferred_content: null,
      custom_instructions: d.customInstructions,
      user_name: d.userName,
      expires_at: d.expirySeconds !== null ? at + d.expirySeconds * 1000 : null,
      status: "queued",
      error_code: null,
      message: null,
      chunk_count: 0,
      created_at: existing?.created_at ?? at,
      updated_at: at,
      connector_id: d.connectorId,
    };
  }
}

const fileNameOf = (draft: ItemDraft): { file_name?: string } => (draft.file ? { file_name: draft.file.name } : {});

/** The key under which an unnamed file is matched against stored files of its scope; null: never matched. */
function dedupeKey(scope: ItemScope, draft: ItemDraft, allowDuplicates: boolean): string | null {
  if (allowDuplicates || draft.idGiven || draft.contentHash === null) return null;
  return `${scopeKey(scope)}|${draft.contentHash}`;
}

/** One pipeline job per item generation; the reconcile job finds it again by this key. */
export const ingestJobKey = (itemId: string, generation: number): string => `ingest:${itemId}:${generation}`;

/** The graph job of an item generation (enqueued when the item becomes searchable). */
export const graphJobKey = (itemId: string, generation: number): string => `graph:${itemId}:${generation}`;
