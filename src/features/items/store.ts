import type { Executor } from "../../platform/store/db.js";
import type { ContextItemsTable, Corpus, IndexingStatus } from "../../platform/store/schema.js";

export type ItemRow = ContextItemsTable;

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
const POSTING_ROWS_PER_STATEMENT = 1000;

export interface ItemScope {
  databaseId: string;
  corpus: Corpus;
  collection: string;
}

/** Items and their chunks and postings. One SQL implementation serves both backends. */
export class ItemStore {
  constructor(private readonly db: Executor) {}

  async findBySource(scope: ItemScope, sourceId: string): Promise<ItemRow | undefined> {
    return this.db
      .selectFrom("context_items")
      .selectAll()
      .where("database_id", "=", scope.databaseId)
      .where("corpus", "=", scope.corpus)
      .where("collection", "=", scope.collection)
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
        .where("database_id", "=", scope.databaseId)
        .where("corpus", "=", scope.corpus)
        .where("collection", "=", scope.collection)
        .where(column, "in", unique.slice(i, i + 500));
      if (skipErrored) q = q.where("status", "<>", "errored");
      out.push(...(await q.orderBy("created_at").execute()));
    }
    return out;
  }

  async getById(id: string): Promise<ItemRow | undefined> {
    return this.db.selectFrom("context_items").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The items with these ids, in the order asked (undefined where none). */
  async getByIds(ids: readonly string[]): Promise<Array<ItemRow | undefined>> {
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
    for (let i = 0; i < rows.length; i += 100)
      await this.db
        .insertInto("context_items")
        .values(rows.slice(i, i + 100))
        .execute();
  }

  async replace(row: ItemRow): Promise<void> {
    const { id, ...rest } = row;
    await this.db.updateTable("context_items").set(rest).where("id", "=", id).execute();
  }

  /**
   * Sets the status only if the item is still at `generation` and in one of the `from` states,
   * in the UPDATE's own WHERE clause (atomic on both backends, across processes); false when it
   * was replaced or moved on meanwhile. A terminal state is never in `from`, so it never changes.
   */
  async setStatus(
    id: string,
    generation: number,
    from: readonly IndexingStatus[],
    status: IndexingStatus,
    at: number,
    error: { code: string; message: string } | null = null,
    extra: Partial<Pick<ItemRow, "chunk_count" | "inferred_content">> = {},
  ): Promise<boolean> {
    const live = from.filter((s) => !TERMINAL_STATUSES.includes(s));
    if (live.length === 0) return false;
    const res = await this.db
      .updateTable("context_items")
      .set({ status, updated_at: at, error_code: error?.code ?? null, message: error?.message ?? null, ...extra })
      .where("id", "=", id)
      .where("generation", "=", generation)
      .where("status", "in", live)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async chunkKeys(itemId: string): Promise<number[]> {
    const rows = await this.db.selectFrom("context_chunks").select("chunk_key").where("item_id", "=", itemId).execute();
    return rows.map((r) => Number(r.chunk_key));
  }

  /** Removes the item's chunks; postings and vectors go with them (ON DELETE CASCADE). */
  async deleteChunks(itemId: string): Promise<void> {
    const keys = await this.chunkKeys(itemId);
    if (keys.length === 0) return;
    // Explicit deletes: SQLite enforces cascades only with foreign_keys on, and PostgreSQL
    // is faster deleting postings by key than through per-row cascade triggers.
    for (let i = 0; i < keys.length; i += 500) {
      const part = keys.slice(i, i + 500);
      await this.db.deleteFrom("context_terms").where("chunk_key", "in", part).execute();
      await this.db.deleteFrom("context_vectors").where("chunk_key", "in", part).execute();
    }
    await this.db.deleteFrom("context_chunks").where("item_id", "=", itemId).execute();
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
      })),
    );
    // Keys come back by uuid: neither backend promises RETURNING rows in VALUES order.
    const keyOf = new Map<string, number>();
    for (let i = 0; i < rows.length; i += CHUNK_ROWS_PER_STATEMENT) {
      const inserted = await this.db
        .insertInto("context_chunks")
        .values(rows.slice(i, i + CHUNK_ROWS_PER_STATEMENT))
        .returning(["chunk_uuid", "chunk_key"])
        .execute();
      for (const r of inserted) keyOf.set(r.chunk_uuid, Number(r.chunk_key));
    }
    const keys = entries.map(({ chunks }) =>
      chunks.map((c) => {
        const key = keyOf.get(c.chunk_uuid);
        if (key === undefined) throw new Error(`chunk ${c.chunk_uuid} was not inserted`);
        return key;
      }),
    );
    const postings = entries.flatMap(({ item, chunks }, e) =>
      chunks.flatMap((c, j) =>
        [...c.terms].map(([term, tf]) => ({
          chunk_key: keys[e]![j]!,
          database_id: item.database_id,
          corpus: item.corpus,
          collection: item.collection,
          term,
          tf,
        })),
      ),
    );
    for (let i = 0; i < postings.length; i += POSTING_ROWS_PER_STATEMENT) {
      await this.db
        .insertInto("context_terms")
        .values(postings.slice(i, i + POSTING_ROWS_PER_STATEMENT))
        .execute();
    }
    return keys;
  }

  async deleteItem(id: string): Promise<void> {
    await this.deleteChunks(id);
    await this.db.deleteFrom("context_items").where("id", "=", id).execute();
  }

  async deleteDatabase(databaseId: string): Promise<void> {
    await this.db.deleteFrom("context_terms").where("database_id", "=", databaseId).execute();
    await this.db.deleteFrom("context_vectors").where("database_id", "=", databaseId).execute();
    await this.db.deleteFrom("context_chunks").where("database_id", "=", databaseId).execute();
    await this.db.deleteFrom("context_items").where("database_id", "=", databaseId).execute();
  }

  async countByCorpus(databaseId: string): Promise<Record<string, number>> {
    const items = await this.db
      .selectFrom("context_items")
      .select(["corpus", (eb) => eb.fn.countAll<number>().as("n")])
      .where("database_id", "=", databaseId)
      .groupBy("corpus")
      .execute();
    const chunks = await this.db
      .selectFrom("context_chunks")
      .select(["corpus", (eb) => eb.fn.countAll<number>().as("n")])
      .where("database_id", "=", databaseId)
      .groupBy("corpus")
      .execute();
    const out: Record<string, number> = { knowledge_items: 0, memory_items: 0, knowledge_chunks: 0, memory_chunks: 0 };
    for (const r of items) out[`${r.corpus}_items`] = Number(r.n);
    for (const r of chunks) out[`${r.corpus}_chunks`] = Number(r.n);
    return out;
  }
}
