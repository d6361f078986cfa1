import { sql, type Insertable } from "kysely";
import type { Executor } from "../../platform/store/db.js";
import type { Schema } from "../../platform/store/schema.js";
import { statementTemplate } from "../../platform/store/statement-templates.js";
import type { DatabaseTenancy, OrgTenancy } from "../../platform/tenancy.js";
import type { ContextChunksTable, ContextItemsTable } from "./rows.js";
import { encodeTerms } from "./chunk-terms.js";
import type { EveryKeyListed } from "../../platform/util/every-key-listed.js";
import type { Corpus, IndexingStatus } from "./item-types.js";
import { CORPORA, scopeColumns, type ContentScope } from "./item-types.js";

export type ItemRow = ContextItemsTable;
/** A stored chunk as the query path reads it (without its postings), its key as a number on both backends. */
export type ChunkRow = Omit<ContextChunksTable, "chunk_key" | "terms"> & { chunk_key: number };

/** Every column of a ChunkRow: a chunk's postings (`terms`) are read only to build the BM25 indexes. */
export const CHUNK_COLUMNS = [
  "org_id",
  "chunk_key",
  "chunk_uuid",
  "item_id",
  "database_id",
  "collection",
  "corpus",
  "position",
  "content",
  "section_path",
  "page",
  "unit",
  "token_count",
  "term_count",
] as const satisfies ReadonlyArray<keyof ChunkRow>;
// A column added to the chunks table must be listed above (or left out of ChunkRow, as `terms` is).
const everyChunkColumnListed: EveryKeyListed<ChunkRow, (typeof CHUNK_COLUMNS)[number]> = true;
void everyChunkColumnListed;

/** States an item never leaves (for its generation): only an upsert starts it over. */
const TERMINAL_STATUSES: readonly IndexingStatus[] = ["completed", "errored"];

export interface ChunkInsert {
  chunk_uuid: string;
  position: number;
  content: string;
  section_path: string[];
  page: number | null;
  unit: string | null;
  token_count: number;
  terms: ReadonlyMap<string, number>;
}

/** Rows per multi-row INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const CHUNK_ROWS_PER_STATEMENT = 500;
/** The multi-row insert of ItemStore.insertMany, compiled once per row count. */
const itemInserts = statementTemplate(
  (rows: readonly ItemRow[]) => String(rows.length),
  (db, rows) => db.insertInto("context_items").values(rows),
);
/** The multi-row insert of insertChunksOf, compiled once per row count. */
const insertChunkRows = statementTemplate(
  (rows: ReadonlyArray<Insertable<Schema["context_chunks"]>>) => String(rows.length),
  (db, rows) => db.insertInto("context_chunks").values(rows).returning(["chunk_uuid", "chunk_key"]),
);
/** One corpus of one collection of a database of an organization: where a public item id is unique. */
export type ItemScope = ContentScope;

/** The organization a row belongs to, as a tenancy. */
export const orgOf = (row: { readonly org_id: string }): OrgTenancy => ({ orgId: row.org_id });

/** The item a status write addresses: its organization, id and the generation it expects. */
export type ItemKey = Pick<ItemRow, "org_id" | "id" | "generation">;
/**
 * An item at one generation, as setStatusMany reports it moved: by id alone, an entry of an older
 * generation listed beside the current one would read as moved too.
 */
export const movedKey = (item: Pick<ItemKey, "id" | "generation">): string => `${item.id}:${item.generation}`;
/** Columns a status write may set beside the status (on the way to searchable). */
export type StatusExtra = Partial<Pick<ItemRow, "chunk_count" | "inferred_content">>;

/** The database an item belongs to, as its rows name it. */
export type DatabaseOfItems = { readonly org_id: string; readonly id: string };

export interface ItemStatusRow {
  source_id: string;
  status: IndexingStatus;
  error_code: string | null;
  message: string | null;
}

/** What reconcile needs of an item short of a terminal state. */
export type StaleItem = Pick<ItemRow, "org_id" | "id" | "generation" | "status">;
/** What a purge needs of an expired memory. */
export type ExpiredItem = Pick<ItemRow, "id" | "source_id" | "org_id" | "database_id" | "corpus" | "blob_id" | "collection">;

/**
 * Items and their chunks and postings. One SQL implementation serves both backends. Every query
 * is scoped by the organization; the few that span organizations on purpose (scheduled upkeep,
 * job handlers working from a job payload) say so in their names.
 */
/** One indexed chunk of an item, as GET /context/inspect lists it with include_chunks. */
export interface IndexedChunk {
  chunk_uuid: string;
  position: number;
  content: string;
  section_path: string;
  page: number | null;
}

export class ItemStore {
  constructor(private readonly db: Executor) {}

  async findBySource(scope: ItemScope, sourceId: string): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom("context_items")
      .selectAll()
      .where((eb) => eb.and(scopeColumns(scope)))
      .where("source_id", "=", sourceId)
      .executeTakeFirst();
  }

  /** The oldest item of the scope holding each of these file hashes; errored ones do not count (sending the file again retries it). */
  async findByContentHashes(scope: ItemScope, hashes: readonly string[]): Promise<Map<string, ItemRow>> {
    const found = new Map<string, ItemRow>();
    for (const r of await this.scopeRowsWhereIn(scope, "content_hash", hashes, true)) {
      if (r.content_hash !== null && !found.has(r.content_hash)) found.set(r.content_hash, r);
    }
    return found;
  }

  /** The items of one scope with these source ids, by source id. */
  async findBySources(scope: ItemScope, sourceIds: readonly string[]): Promise<Map<string, ItemRow>> {
    return new Map((await this.scopeRowsWhereIn(scope, "source_id", sourceIds, false)).map((r) => [r.source_id, r]));
  }

  /** Rows of one scope whose column is one of the values, 500 values per statement, oldest first. */
  private async scopeRowsWhereIn(scope: ItemScope, column: "content_hash" | "source_id", values: readonly string[], skipErrored: boolean): Promise<ItemRow[]> {
    const unique = [...new Set(values)];
    const out: ItemRow[] = [];
    for (let i = 0; i < unique.length; i += 500) {
      let q = this.db
        .selectFrom("context_items")
        .selectAll()
        .where((eb) => eb.and(scopeColumns(scope)))
        .where(column, "in", unique.slice(i, i + 500));
      if (skipErrored) q = q.where("status", "<>", "errored");
      out.push(...(await q.orderBy("created_at").execute()));
    }
    return out;
  }

  async getById(org: OrgTenancy, id: string): Promise<ItemRow | undefined> {
    return this.db.selectFrom("context_items").selectAll().where("org_id", "=", org.orgId).where("id", "=", id).executeTakeFirst();
  }

  /**
   * The items with these ids, in the order asked (undefined where none), whatever their
   * organization: for pipeline jobs, whose payload names an item id only (jobs queued before
   * payloads carried an organization too). The caller scopes every later write by the row's org_id.
   */
  async getByIdsAcrossOrganizations(ids: readonly string[]): Promise<Array<ItemRow | undefined>> {
    const rows = await this.db
      .selectFrom("context_items")
      .selectAll()
      .where("id", "in", [...new Set(ids)])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id));
  }

  async insert(row: ItemRow): Promise<void> {
    await this.insertMany([row]);
  }

  async insertMany(rows: readonly ItemRow[]): Promise<void> {
    // 37 columns: 100 rows stay far below either backend's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 100) await itemInserts.run(this.db, rows.slice(i, i + 100));
  }

  async replace(row: ItemRow): Promise<void> {
    const { id, org_id, ...rest } = row;
    await this.db.updateTable("context_items").set(rest).where("org_id", "=", org_id).where("id", "=", id).execute();
  }

  /** Replaces the item's metadata (a merge computed by the caller). */
  async setMetadata(item: Pick<ItemRow, "org_id" | "id">, metadata: string, additional: string, at: number): Promise<void> {
    await this.db
      .updateTable("context_items")
      .set({ metadata, additional_metadata: additional, updated_at: at })
      .where("org_id", "=", item.org_id)
      .where("id", "=", item.id)
      .execute();
  }

  /**
   * Moves items of their generation from one of the `from` states to `status` (with their own
   * `extra` columns), in one statement per organization, generation and `extra` (and per 500
   * items): the `movedKey`s of the items that moved. An item replaced meanwhile (its generation moved
   * on) or no longer in a `from` state stays as it is; a terminal state is never left.
   */
  async setStatusMany(
    entries: ReadonlyArray<{ readonly item: ItemKey; readonly extra?: StatusExtra }>,
    from: readonly IndexingStatus[],
    status: IndexingStatus,
    at: number,
    error: { code: string; message: string } | null = null,
  ): Promise<Set<string>> {
    const moved = new Set<string>();
    const live = from.filter((s) => !TERMINAL_STATUSES.includes(s));
    if (live.length === 0) return moved;
    const groups = new Map<string, { item: ItemKey; extra: StatusExtra; ids: string[] }>();
    for (const { item, extra = {} } of entries) {
      const key = JSON.stringify([item.org_id, item.generation, extra.chunk_count, extra.inferred_content]);
      const group = groups.get(key) ?? { item, extra, ids: [] };
      group.ids.push(item.id);
      groups.set(key, group);
    }
    for (const { item, extra, ids } of groups.values()) {
      for (let i = 0; i < ids.length; i += CHUNK_ROWS_PER_STATEMENT) {
        const set: StatusWriteValues["set"] = { status, updated_at: at, error_code: error?.code ?? null, message: error?.message ?? null };
        if (extra.chunk_count !== undefined) set.chunk_count = extra.chunk_count;
        if (extra.inferred_content !== undefined) set.inferred_content = extra.inferred_content;
        const rows = await statusWrites.run(this.db, {
          item: { org_id: item.org_id, generation: item.generation },
          ids: ids.slice(i, i + CHUNK_ROWS_PER_STATEMENT),
          live,
          set,
        });
        for (const r of rows) moved.add(movedKey({ id: r.id, generation: item.generation }));
      }
    }
    return moved;
  }

  async chunkKeys(org: OrgTenancy, itemId: string): Promise<number[]> {
    const rows = await this.db.selectFrom("context_chunks").select("chunk_key").where("org_id", "=", org.orgId).where("item_id", "=", itemId).execute();
    return rows.map((r) => Number(r.chunk_key));
  }

  /** The item's indexed text: its chunks in order (inferred ones left out); empty before indexing. */
  async indexedChunks(org: OrgTenancy, itemId: string): Promise<IndexedChunk[]> {
    return this.db
      .selectFrom("context_chunks")
      .select(["chunk_uuid", "position", "content", "section_path", "page"])
      .where("org_id", "=", org.orgId)
      .where("item_id", "=", itemId)
      .where("unit", "is distinct from", "inferred")
      .orderBy("position")
      .execute();
  }

  /** Removes the item's chunks (their postings are in their rows) and vectors. */
  async deleteChunks(org: OrgTenancy, itemId: string): Promise<void> {
    const keys = await this.chunkKeys(org, itemId);
    if (keys.length === 0) return;
    // Explicit deletes: SQLite enforces cascades only with foreign_keys on, and PostgreSQL
    // is faster deleting vectors by key than through per-row cascade triggers.
    for (let i = 0; i < keys.length; i += 500) {
      const part = keys.slice(i, i + 500);
      await this.db.deleteFrom("context_vectors").where("org_id", "=", org.orgId).where("chunk_key", "in", part).execute();
    }
    await this.db.deleteFrom("context_chunks").where("org_id", "=", org.orgId).where("item_id", "=", itemId).execute();
  }

  /** Inserts chunks with their postings; returns the chunk keys in input order. */
  async insertChunks(item: ItemRow, chunks: readonly ChunkInsert[]): Promise<number[]> {
    const [keys] = await this.insertChunksOf([{ item, chunks }]);
    return keys ?? [];
  }

  /**
   * Inserts the chunks of several items with their postings in a few multi-row statements;
   * returns each item's chunk keys in input order.
   */
  async insertChunksOf(entries: ReadonlyArray<{ item: ItemRow; chunks: readonly ChunkInsert[] }>): Promise<number[][]> {
    const rows = entries.flatMap(({ item, chunks }) =>
      chunks.map((c) => ({
        chunk_uuid: c.chunk_uuid,
        item_id: item.id,
        org_id: item.org_id,
        database_id: item.database_id,
        collection: item.collection,
        corpus: item.corpus,
        position: c.position,
        content: c.content,
        section_path: JSON.stringify(c.section_path),
        page: c.page,
        unit: c.unit,
        token_count: c.token_count,
        term_count: [...c.terms.values()].reduce((a, b) => a + b, 0),
        terms: encodeTerms(c.terms),
      })),
    );
    // Keys come back by uuid: neither backend promises RETURNING rows in VALUES order.
    const keyOf = new Map<string, number>();
    for (let i = 0; i < rows.length; i += CHUNK_ROWS_PER_STATEMENT) {
      const inserted = await insertChunkRows.run(this.db, rows.slice(i, i + CHUNK_ROWS_PER_STATEMENT));
      for (const r of inserted) keyOf.set(r.chunk_uuid, Number(r.chunk_key));
    }
    const keys = entries.map(({ chunks }) =>
      chunks.map((c) => {
        const key = keyOf.get(c.chunk_uuid);
        if (key === undefined) throw new Error(`chunk ${c.chunk_uuid} was not inserted`);
        return key;
      }),
    );
    return keys;
  }

  /** Up to `limit` items of one collection, both corpora (a collection's deletion reads them batch by batch). */
  async itemsOfCollection(at: DatabaseTenancy, limit: number): Promise<ItemRow[]> {
    return this.db
      .selectFrom("context_items")
      .selectAll()
      .where("org_id", "=", at.orgId)
      .where("database_id", "=", at.databaseId)
      .where("collection", "=", at.collection)
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  async deleteItem(org: OrgTenancy, id: string): Promise<void> {
    await this.deleteChunks(org, id);
    await this.db.deleteFrom("context_items").where("org_id", "=", org.orgId).where("id", "=", id).execute();
  }

  async deleteDatabase(database: DatabaseOfItems): Promise<void> {
    for (const table of ["context_vectors", "context_chunks", "context_items"] as const) {
      await this.db.deleteFrom(table).where("org_id", "=", database.org_id).where("database_id", "=", database.id).execute();
    }
  }

  async countByCorpus(database: DatabaseOfItems): Promise<Record<string, number>> {
    const out: Record<string, number> = { knowledge_items: 0, memory_items: 0, knowledge_chunks: 0, memory_chunks: 0 };
    for (const [table, suffix] of [
      ["context_items", "items"],
      ["context_chunks", "chunks"],
    ] as const) {
      const rows = await this.db
        .selectFrom(table)
        .select(["corpus", (eb) => eb.fn.countAll<number>().as("n")])
        .where("org_id", "=", database.org_id)
        .where("database_id", "=", database.id)
        .groupBy("corpus")
        .execute();
      for (const r of rows) out[`${r.corpus}_${suffix}`] = Number(r.n);
    }
    return out;
  }

  /** Indexing states of the items of one collection with these public ids (of one corpus, or both). */
  async statuses(scope: Omit<ItemScope, "corpus">, sourceIds: readonly string[], corpus: Corpus | null): Promise<ItemStatusRow[]> {
    return itemStatusesQuery(this.db, scope, sourceIds, corpus).execute();
  }

  /**
   * Items of every organization short of a terminal state and untouched since `before`: the
   * scheduled reconcile looks at all of them on purpose.
   */
  async findStaleAcrossOrganizations(before: number, limit: number): Promise<StaleItem[]> {
    return this.db
      .selectFrom("context_items")
      .select(["org_id", "id", "generation", "status"])
      .where("status", "in", ["queued", "processing", "graph_creation"])
      .where("updated_at", "<", before)
      .limit(limit)
      .execute();
  }

  /** Memories of every organization past their expiry at `at`: the scheduled purge removes them all. */
  async findExpiredAcrossOrganizations(at: number, limit: number): Promise<ExpiredItem[]> {
    return this.db
      .selectFrom("context_items")
      .select(["id", "source_id", "org_id", "database_id", "corpus", "blob_id", "collection"])
      .where("corpus", "=", "memory")
      .where("expires_at", "is not", null)
      .where("expires_at", "<=", at)
      .limit(limit)
      .execute();
  }
}

/**
 * A status write of items of one organization and generation, still in one of the `live` states:
 * the ids of those it moved. `|| ''` keeps SQLite from walking the status index (every item of
 * that status: thousands waiting for their graph during a bulk ingest, 1.4 ms a statement)
 * instead of looking the ids up by primary key.
 */
export function statusWrite(
  db: Executor,
  item: Pick<ItemKey, "org_id" | "generation">,
  ids: readonly string[],
  live: readonly IndexingStatus[],
  values: Pick<ItemRow, "status" | "updated_at" | "error_code" | "message"> & StatusExtra,
) {
  return db
    .updateTable("context_items")
    .set(values)
    .where("org_id", "=", item.org_id)
    .where("generation", "=", item.generation)
    .where("id", "in", [...ids])
    .where(sql<string>`${sql.ref("status")} || ''`, "in", [...live])
    .returning("id");
}

interface StatusWriteValues {
  readonly item: Pick<ItemKey, "org_id" | "generation">;
  readonly ids: readonly string[];
  readonly live: readonly IndexingStatus[];
  readonly set: Pick<ItemRow, "status" | "updated_at" | "error_code" | "message"> & StatusExtra;
}

/** statusWrite compiled once per shape: the pipeline's status writes run for every group of items. */
const statusWrites = statementTemplate(
  (v: StatusWriteValues) => `${v.ids.length}:${v.live.length}:${Object.keys(v.set).join()}`,
  (db, v) => statusWrite(db, v.item, v.ids, v.live, v.set),
);

/**
 * The statement of ItemStore.statuses. Both corpora are named when either may hold the ids: the
 * unique (database, corpus, collection, source_id) index then serves it, where without the corpus
 * SQLite walked every item of the database (21.6 ms for 8 ids at 110,000 items, for a client
 * polling its ingest status).
 */
export function itemStatusesQuery(db: Executor, scope: Omit<ItemScope, "corpus">, sourceIds: readonly string[], corpus: Corpus | null) {
  return db
    .selectFrom("context_items")
    .select(["source_id", "status", "error_code", "message"])
    .where("org_id", "=", scope.orgId)
    .where("database_id", "=", scope.databaseId)
    .where("corpus", "in", corpus === null ? CORPORA : [corpus])
    .where("collection", "=", scope.collection)
    .where("source_id", "in", [...sourceIds]);
}
