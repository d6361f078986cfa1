import { accessSync, constants, existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { sql, type Insertable } from "kysely";
import type { Schema } from "../../platform/store/schema.js";
import { statementTemplate } from "../../platform/store/statement-templates.js";
import { indexFileStem } from "./index-file-stem.js";
import type { Executor, Store } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import { CORPORA, contentScopeOnly, scopeColumns, type ContentScope } from "../items/item-types.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { UsearchIndex } from "../../engines/vector-index/index.js";
import { yieldToEventLoop } from "../../platform/util/yield-to-event-loop.js";
import { pathOfIds } from "../../platform/util/id-paths.js";

/** A saved index file against the table: `indexed` null when there is no file. */
export interface IndexFileCheck {
  readonly file: string;
  readonly rows: number;
  readonly indexed: number | null;
  readonly missing: number | null;
}

/** One collection's corpus of a database of an organization (one in-process index on SQLite). */
export type VectorScope = ContentScope;

/** The scope's vector keys above `after`, in order: a SQLite index's catch-up (an index range read, migration 17). */
export const vectorKeysAbove = (db: Executor, scope: VectorScope, after: number) =>
  db
    .selectFrom("context_vectors")
    .select("chunk_key")
    .where((eb) => eb.and(scopeColumns(scope)))
    .where("chunk_key", ">", after)
    .orderBy("chunk_key");

/** Every search's catch-up read of its index (vectors written since the last it saw; nearly always none), compiled once. */
const keysAbove = statementTemplate(
  () => "",
  (db, v: { scope: VectorScope; after: number }) => vectorKeysAbove(db, v.scope, v.after),
);

/** How many vectors the scope has in (after, upTo]: a SQLite index's reconcile (an index range count, migration 17). */
export const vectorCountBetween = (db: Executor, scope: VectorScope, after: number, upTo: number) =>
  db
    .selectFrom("context_vectors")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where((eb) => eb.and(scopeColumns(scope)))
    .where("chunk_key", ">", after)
    .where("chunk_key", "<=", upTo);

export interface VectorHit {
  readonly chunkKey: number;
  /** Cosine similarity. */
  readonly score: number;
}

const toBlob = (v: Float32Array): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice();
const fromBlob = (b: Uint8Array): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
/** The multi-row insert of VectorStore.insertMany, compiled once per row count. */
const vectorInserts = statementTemplate(
  (rows: ReadonlyArray<Insertable<Schema["context_vectors"]>>) => String(rows.length),
  (db, rows) => db.insertInto("context_vectors").values(rows),
);
/** Below this many vectors a bulk insert runs on one native thread (starting threads costs more). */
const PARALLEL_ADD_MIN = 16;
/** The corpus as an SQL literal (a closed set), so the planner matches the per-corpus partial index. */
const corpusLiteral = (corpus: Corpus): string => (corpus === "memory" ? "'memory'" : "'knowledge'");
const toPgVector = (v: Float32Array): string => `[${Array.from(v).join(",")}]`;
const fromPgVector = (s: string): Float32Array => new Float32Array(s.slice(1, -1).split(",").map(Number));
const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/**
 * Dense vectors of chunks. The store's `context_vectors` table is the source of truth on both
 * backends (a BLOB on SQLite, pgvector on PostgreSQL with an HNSW index per dimension). On
 * SQLite an in-process HNSW index per database, corpus and collection answers kNN; it is fed
 * incrementally as chunks land, saved under DATA_DIR with its key list, brought level with the
 * table key by key, and rebuilt from the table only when its file is missing or damaged (or, saved
 * without a key list, disagrees with it).
 */
/** Neighbour slots of one vector on the base layer (2 x connectivity 16) of 4 bytes each. */
const HNSW_LINK_BYTES_PER_VECTOR = 2 * 16 * 4;

/** How often a loaded index compares a slice of its keys with the table (rows deleted by other processes). */
const RECONCILE_EVERY_MS = 5_000;
/** About this many keys per reconciled slice. */
const SLICE_KEYS = 8192;

/** What a loaded in-process index has read of the table (SQLite). */
interface Progress {
  /** Highest chunk key read from the table: a catch-up reads the rows above it. */
  seen: number;
  /** Catch-ups and reconciles of one index run one after another. */
  chain: Promise<void>;
  /** The catch-up queued behind the running one: searches arriving meanwhile share it. */
  queued: Promise<void> | null;
  /** Keys this process added above `seen` (not yet read back): the index holds `size - ahead.size` keys up to `seen`. */
  readonly ahead: Set<number>;
  lastReconcile: number;
  reconciling: boolean;
  /** The slice of keys the next reconcile compares. */
  nextSlice: number;
}

const freshProgress = (seen: number): Progress => ({
  seen,
  chain: Promise.resolve(),
  queued: null,
  ahead: new Set(),
  lastReconcile: Date.now(),
  reconciling: false,
  nextSlice: 0,
});

export class VectorStore {
  private readonly indexes = new Map<string, Promise<UsearchIndex>>();
  private readonly progress = new Map<string, Progress>();
  /** The indexes of `indexes` that have finished loading (memory figures read them without waiting). */
  private readonly loaded = new Map<string, UsearchIndex>();
  /** Indexes this process rebuilt from the table (a saved file missing, damaged, or holding deleted keys; a reconcile finding deletions). */
  private rebuilds = 0;
  private readonly pgIndexes = new Map<number, Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly indexDir: string,
  ) {}

  /**
   * Creates the PostgreSQL index for this vector size if needed. Call it before opening the
   * transaction that inserts: CREATE INDEX runs on its own connection and waits for every open
   * writer of context_vectors, so awaiting it inside such a transaction can deadlock the pool.
   */
  async prepare(dims: number): Promise<void> {
    if (this.store.backend === "postgres") await this.ensurePgIndex(dims);
  }

  /** Inserts vectors in `tx`; `prepare(dims)` must have run before the transaction opened. */
  async insert(tx: Executor, scope: VectorScope, keys: readonly number[], vectors: readonly Float32Array[]): Promise<void> {
    await this.insertMany(tx, [{ scope, keys, vectors }]);
  }

  /** Inserts the vectors of several scopes in multi-row statements (see `insert`). */
  async insertMany(tx: Executor, entries: ReadonlyArray<{ scope: VectorScope; keys: readonly number[]; vectors: readonly Float32Array[] }>): Promise<void> {
    const pg = this.store.backend === "postgres";
    const rows = entries.flatMap(({ scope, keys, vectors }) =>
      keys.map((key, i) => ({
        chunk_key: key,
        org_id: scope.orgId,
        database_id: scope.databaseId,
        corpus: scope.corpus,
        collection: scope.collection,
        dims: vectors[i]!.length,
        embedding: pg ? toPgVector(vectors[i]!) : toBlob(vectors[i]!),
      })),
    );
    for (let i = 0; i < rows.length; i += 100) await vectorInserts.run(tx, rows.slice(i, i + 100));
  }

  /** After the insert committed: make the vectors searchable in the in-process index (SQLite). */
  async indexAdded(scope: VectorScope, keys: readonly number[], vectors: readonly Float32Array[]): Promise<void> {
    await this.indexAddedMany([{ scope, keys, vectors }]);
  }

  /**
   * `indexAdded` for the entries of one group commit: one bulk insert per collection, on the
   * index's native threads when the batch is large enough to pay for them (one by one, HNSW
   * insertion was a sixth of the request thread when ingestion was not waiting on its embedder).
   */
  async indexAddedMany(entries: ReadonlyArray<{ scope: VectorScope; keys: readonly number[]; vectors: readonly Float32Array[] }>): Promise<void> {
    if (this.store.backend !== "sqlite") return;
    const byIndex = new Map<string, { scope: VectorScope; keys: number[]; vectors: Float32Array[] }>();
    for (const e of entries) {
      if (e.keys.length === 0) continue;
      const group = byIndex.get(this.name(e.scope)) ?? { scope: e.scope, keys: [], vectors: [] };
      group.keys.push(...e.keys);
      group.vectors.push(...e.vectors);
      byIndex.set(this.name(e.scope), group);
    }
    for (const { scope, keys, vectors } of byIndex.values()) {
      const index = await this.index(scope, vectors[0]!.length);
      index.addMany(keys, vectors, keys.length >= PARALLEL_ADD_MIN ? 0 : 1);
      const p = this.progress.get(this.name(scope));
      if (p !== undefined) for (const key of keys) if (key > p.seen) p.ahead.add(key);
    }
  }

  /** After the delete committed: drop the keys from the in-process index (SQLite). */
  async indexRemoved(scope: VectorScope, keys: readonly number[]): Promise<void> {
    if (this.store.backend !== "sqlite" || keys.length === 0) return;
    const existing = this.indexes.get(this.name(scope));
    if (!existing) return;
    const index = await existing;
    const p = this.progress.get(this.name(scope));
    for (const k of keys) {
      index.remove(k);
      p?.ahead.delete(k);
    }
  }

  /** Approximate k nearest chunks of one collection. */
  async search(scope: VectorScope, query: Float32Array, k: number): Promise<VectorHit[]> {
    if (this.store.backend === "sqlite") {
      const index = await this.index(scope, query.length);
      await this.catchUp(scope, index);
      return index.search(query, k).map((m) => ({ chunkKey: Number(m.key), score: m.score }));
    }
    await this.ensurePgIndex(query.length);
    const d = query.length;
    // The HNSW scan's settings (iterative filtered scan, ef_search) are every session's (store/db.ts).
    const rows = await sql<{ chunk_key: number; distance: number }>`
      SELECT chunk_key, (embedding::vector(${sql.raw(String(d))})) <=> ${toPgVector(query)}::vector(${sql.raw(String(d))}) AS distance
      FROM context_vectors
      WHERE dims = ${d} AND corpus = ${sql.raw(corpusLiteral(scope.corpus))}
        AND org_id = ${scope.orgId} AND database_id = ${scope.databaseId} AND collection = ${scope.collection}
      ORDER BY distance LIMIT ${k}`.execute(this.store.db);
    return rows.rows.map((r) => ({ chunkKey: Number(r.chunk_key), score: 1 - Number(r.distance) }));
  }

  /** Exact similarity of the query to the given chunks (small filtered candidate sets). */
  async scoreAmong(org: OrgTenancy, query: Float32Array, chunkKeys: readonly number[]): Promise<VectorHit[]> {
    const hits: VectorHit[] = [];
    for (let i = 0; i < chunkKeys.length; i += 1000) {
      const rows = await this.store.db
        .selectFrom("context_vectors")
        .select(["chunk_key", "embedding"])
        .where("org_id", "=", org.orgId)
        .where("chunk_key", "in", chunkKeys.slice(i, i + 1000))
        .execute();
      for (const r of rows) {
        const v = typeof r.embedding === "string" ? fromPgVector(r.embedding) : fromBlob(r.embedding);
        if (v.length === query.length) hits.push({ chunkKey: Number(r.chunk_key), score: dot(query, v) });
      }
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  /**
   * Whether a database's vectors of one corpus can be written and searched now: their rows
   * answer, and PostgreSQL has the pgvector extension, or SQLite's index directory is writable
   * (a collection's index loads from there, or is rebuilt from the rows, on first use).
   */
  async ready(database: { readonly org_id: string; readonly id: string }, corpus: Corpus): Promise<boolean> {
    await this.store.db
      .selectFrom("context_vectors")
      .select("chunk_key")
      .where("org_id", "=", database.org_id)
      .where("database_id", "=", database.id)
      .where("corpus", "=", corpus)
      .limit(1)
      .execute();
    if (this.store.backend === "postgres") {
      const ext = await sql<{ extname: string }>`SELECT extname FROM pg_extension WHERE extname = 'vector'`.execute(this.store.db);
      return ext.rows.length === 1;
    }
    mkdirSync(this.indexDir, { recursive: true });
    accessSync(this.indexDir, constants.W_OK);
    return true;
  }

  async dropDatabase(databaseId: string): Promise<void> {
    for (const name of [...this.indexes.keys()]) {
      if (name.startsWith(`${databaseId}/`)) {
        this.indexes.delete(name);
        this.loaded.delete(name);
        this.progress.delete(name);
      }
    }
    rmSync(pathOfIds(this.indexDir, databaseId), { recursive: true, force: true });
  }

  /**
   * Vectors held by the loaded in-process indexes (SQLite; PostgreSQL searches with pgvector) and an
   * estimate of their memory: 4 bytes per dimension per vector plus the HNSW links (connectivity 16,
   * twice that on the base layer, 4-byte slots).
   */
  memory(): { vectors: number; bytes: number; rebuilds: number } {
    let vectors = 0;
    let bytes = 0;
    for (const index of this.loaded.values()) {
      const n = index.size();
      vectors += n;
      bytes += n * (index.dimensions * 4 + HNSW_LINK_BYTES_PER_VECTOR);
    }
    return { vectors, bytes, rebuilds: this.rebuilds };
  }

  /** Writes every loaded index to disk (shutdown, and periodically by the caller). */
  async saveAll(): Promise<void> {
    for (const [name, pending] of this.indexes) {
      const index = await pending.catch(() => null);
      if (!index) continue;
      const file = join(this.indexDir, `${name}.usearch`);
      mkdirSync(join(file, ".."), { recursive: true });
      index.save(file);
    }
  }

  /** The loaded (or loaded now, or rebuilt now) index of one collection. */
  index(scope: VectorScope, dimensions: number): Promise<UsearchIndex> {
    const name = this.name(scope);
    let pending = this.indexes.get(name);
    if (!pending) {
      pending = this.open(scope, name, dimensions);
      this.indexes.set(name, pending);
      void pending.then(
        (index) => {
          if (this.indexes.get(name) === pending) this.loaded.set(name, index);
        },
        () => this.indexes.delete(name),
      );
    }
    return pending;
  }

  private name(scope: VectorScope): string {
    return indexFileStem(scope);
  }

  private ensurePgIndex(dims: number): Promise<void> {
    let pending = this.pgIndexes.get(dims);
    if (!pending) {
      // Partial HNSW indexes per vector size (different embedders can share the table) and per
      // corpus: a search of the memories (a tenth of the rows in bench:query's store) walked one
      // graph shared with the knowledge and filtered most of what it visited away.
      // DDL: as the login role, which owns the table (the role connections assume may not create indexes).
      pending = this.store.asOwner(async (tx) => {
        for (const corpus of CORPORA)
          await sql
            .raw(
              `CREATE INDEX IF NOT EXISTS context_vectors_hnsw_${dims}_${corpus} ON context_vectors
               USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE dims = ${dims} AND corpus = '${corpus}'`,
            )
            .execute(tx);
        // The shared index of earlier versions: every insert would pay for it too.
        await sql.raw(`DROP INDEX IF EXISTS context_vectors_hnsw_${dims}`).execute(tx);
      });
      pending.catch(() => this.pgIndexes.delete(dims));
      this.pgIndexes.set(dims, pending);
    }
    return pending;
  }

  /**
   * Rows other processes wrote since the index last looked (SQLite: each process keeps its own
   * index of the one table, as each keeps its own BM25 index): one range probe of the scope's
   * keys above the highest it read, the vectors only of keys it lacks. In the background, every
   * RECONCILE_EVERY_MS, the index's size is compared with the table's count up to that key: rows
   * deleted by another process are then dropped (this process drops its own as it deletes them).
   */
  private catchUp(scope: VectorScope, index: UsearchIndex): Promise<void> {
    const name = this.name(scope);
    const p = this.progress.get(name);
    if (p === undefined) return Promise.resolve();
    if (p.queued === null) {
      const queued = p.chain.then(async () => {
        p.queued = null;
        await this.readNewRows(scope, index, p);
      });
      p.queued = queued;
      p.chain = queued.catch(() => undefined);
    }
    const pending = p.queued;
    if (Date.now() - p.lastReconcile >= RECONCILE_EVERY_MS && !p.reconciling) void this.reconcile(scope, index, p);
    return pending;
  }

  private async readNewRows(scope: VectorScope, index: UsearchIndex, p: Progress): Promise<void> {
    const rows = await keysAbove.run(this.store.reader, {
      scope: contentScopeOnly(scope),
      after: p.seen,
    });
    if (rows.length === 0) return;
    const keys = rows.map((r) => Number(r.chunk_key));
    await this.addFromTable(
      scope,
      index,
      keys.filter((k) => !index.has(k)),
    );
    p.seen = Math.max(p.seen, keys.at(-1)!);
    for (const key of p.ahead) if (key <= p.seen) p.ahead.delete(key);
  }

  private async reconcile(scope: VectorScope, index: UsearchIndex, p: Progress): Promise<void> {
    p.reconciling = true;
    try {
      let stale = false;
      const check = p.chain.then(async () => {
        stale = await this.reconcileSlice(scope, index, p);
      });
      p.chain = check.catch(() => undefined);
      await check;
      if (!stale) return;
      // Deleted elsewhere (or missed): rebuilt from the table, then swapped in for later searches.
      const name = this.name(scope);
      const rebuilt = await this.rebuild(scope, index.dimensions);
      if (this.indexes.has(name)) {
        this.indexes.set(name, Promise.resolve(rebuilt.index));
        this.loaded.set(name, rebuilt.index);
        this.progress.set(name, freshProgress(rebuilt.seen));
      }
    } finally {
      p.lastReconcile = Date.now();
      p.reconciling = false;
    }
  }

  /**
   * Compares one slice of the keys up to `seen` with the table, in the index's chain so no
   * catch-up moves either between the two (slices taken in turn, as the BM25 index does); where
   * they differ, the keys the table lost are removed and those the index lacks are read. A full
   * rebuild blocked the request thread for 26-29 s at 110,000 vectors whenever another process
   * had deleted a row (bench:load). True only for an index whose keys are unknown (loaded from a
   * file saved without them) when its count disagrees: that one is rebuilt.
   */
  private async reconcileSlice(scope: VectorScope, index: UsearchIndex, p: Progress): Promise<boolean> {
    if (!index.knowsKeys()) {
      const row = await vectorCountBetween(this.store.reader, scope, -1, p.seen).executeTakeFirst();
      return Number(row?.n ?? 0) !== index.size() - p.ahead.size;
    }
    const last = p.seen;
    if (last < 0) return false;
    const slices = Math.max(1, Math.ceil(index.size() / SLICE_KEYS));
    const width = Math.ceil((last + 1) / slices);
    const slice = p.nextSlice % slices;
    p.nextSlice = slice + 1;
    const after = slice * width - 1;
    const upTo = slice === slices - 1 ? last : Math.min(last, after + width);
    const indexed = index.keysBetween(after, upTo);
    const row = await vectorCountBetween(this.store.reader, scope, after, upTo).executeTakeFirst();
    if (Number(row?.n ?? 0) === indexed.length) return false;
    const stored = (await vectorKeysAbove(this.store.reader, scope, after).where("chunk_key", "<=", upTo).execute()).map((r) => Number(r.chunk_key));
    const present = new Set(stored);
    for (const key of indexed) if (!present.has(key)) index.remove(key);
    await this.addFromTable(
      scope,
      index,
      stored.filter((key) => !index.has(key)),
    );
    return false;
  }

  private async open(scope: VectorScope, name: string, dimensions: number): Promise<UsearchIndex> {
    const opened = await this.openOrRebuild(scope, name, dimensions);
    this.progress.set(name, freshProgress(opened.seen));
    return opened.index;
  }

  private async openOrRebuild(scope: VectorScope, name: string, dimensions: number): Promise<{ index: UsearchIndex; seen: number }> {
    const file = join(this.indexDir, `${name}.usearch`);
    if (existsSync(file)) {
      try {
        const loaded = new UsearchIndex({ dimensions });
        loaded.load(file);
        // The file's keys are compared with the table's, not its size: after a SIGKILL the file
        // predates the rows, and a deletion plus an insertion since the last save leave the
        // count equal with different keys.
        const check = await this.missingKeys(scope, loaded);
        // Keys the table no longer has (deleted since the save) are removed one by one, when the
        // file came with its key list.
        for (const key of check.stale) loaded.remove(key);
        // Rows added since the save (another process kept indexing, or a crash left the file
        // behind) are read into the loaded index; without a key list, keys the table no longer has
        // need a rebuild. Rebuilding on any difference made a second service process rebuild
        // 110,000 vectors on its first dense query (seconds of stall, bench:load).
        if (loaded.size() === check.rows - check.missing.length) {
          // A file saved without its key list holds exactly the table's keys it was found to have.
          loaded.adoptKeys(check.present);
          await this.addFromTable(scope, loaded, check.missing);
          return { index: loaded, seen: check.last };
        }
      } catch {
        // a damaged or foreign file: rebuild below
      }
    }
    return this.rebuild(scope, dimensions);
  }

  /**
   * The scope's rows whose key the index lacks, how many rows it has, the highest key read, and
   * (when the index knows its keys) the index's keys that the table does not have.
   */
  private async missingKeys(
    scope: VectorScope,
    index: UsearchIndex,
  ): Promise<{ missing: number[]; stale: number[]; present: number[]; rows: number; last: number }> {
    const missing: number[] = [];
    const present: number[] = [];
    const stored = new Set<number>();
    let rows = 0;
    let after = -1;
    for (;;) {
      const page = await vectorKeysAbove(this.store.db, scope, after).limit(20_000).execute();
      if (page.length === 0) break;
      rows += page.length;
      for (const r of page) {
        after = Number(r.chunk_key);
        if (index.knowsKeys()) stored.add(after);
        if (!index.has(after)) missing.push(after);
        else if (!index.knowsKeys()) present.push(after);
      }
      await yieldToEventLoop();
    }
    const stale = index.knowsKeys() ? index.keys().filter((key) => !stored.has(key)) : [];
    return { missing, stale, present, rows, last: after };
  }

  /** Reads the vectors of `keys` (of the scope's organization) from the table into the index. */
  private async addFromTable(scope: VectorScope, index: UsearchIndex, keys: readonly number[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = await this.store.reader
        .selectFrom("context_vectors")
        .select(["chunk_key", "embedding", "dims"])
        .where("org_id", "=", scope.orgId)
        .where("chunk_key", "in", keys.slice(i, i + 1000))
        .execute();
      const found = batch.filter((r) => r.dims === index.dimensions && typeof r.embedding !== "string");
      index.addMany(
        found.map((r) => Number(r.chunk_key)),
        found.map((r) => fromBlob(r.embedding as Uint8Array)),
        found.length >= PARALLEL_ADD_MIN ? 0 : 1,
      );
      if (keys.length > 1000) await yieldToEventLoop();
    }
  }

  /**
   * Compares each saved index file of the store (as the last process left it) with the
   * vectors table (SQLite): an operator's consistency check, also run by the fault suite.
   */
  async checkSavedIndexes(): Promise<IndexFileCheck[]> {
    if (this.store.backend !== "sqlite") return [];
    const scopes = await this.store.db
      .selectFrom("context_vectors")
      .select(["org_id", "database_id", "corpus", "collection", "dims"])
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .groupBy(["org_id", "database_id", "corpus", "collection", "dims"])
      .execute();
    const out: IndexFileCheck[] = [];
    for (const s of scopes) {
      const scope: VectorScope = { orgId: s.org_id, databaseId: s.database_id, corpus: s.corpus, collection: s.collection };
      const file = join(this.indexDir, `${this.name(scope)}.usearch`);
      if (!existsSync(file)) {
        out.push({ file, rows: Number(s.n), indexed: null, missing: null });
        continue;
      }
      const index = new UsearchIndex({ dimensions: s.dims });
      index.load(file);
      out.push({ file, rows: Number(s.n), indexed: index.size(), missing: (await this.missingKeys(scope, index)).missing.length });
    }
    return out;
  }

  private async rebuild(scope: VectorScope, dimensions: number): Promise<{ index: UsearchIndex; seen: number }> {
    this.rebuilds += 1;
    const index = new UsearchIndex({ dimensions });
    let after = -1;
    for (;;) {
      const rows = await this.store.db
        .selectFrom("context_vectors")
        .select(["chunk_key", "embedding", "dims"])
        .where((eb) => eb.and(scopeColumns(scope)))
        .where("chunk_key", ">", after)
        .orderBy("chunk_key")
        .limit(5000)
        .execute();
      if (rows.length === 0) break;
      const keys: number[] = [];
      const vectors: Float32Array[] = [];
      for (const r of rows) {
        after = Number(r.chunk_key);
        if (r.dims !== dimensions || typeof r.embedding === "string") continue;
        keys.push(after);
        vectors.push(fromBlob(r.embedding));
      }
      if (keys.length > 0) index.addMany(keys, vectors);
      await yieldToEventLoop();
    }
    return { index, seen: after };
  }
}
