import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Executor, Store } from "../store/db.js";
import type { Corpus } from "../store/schema.js";
import { UsearchIndex } from "../vector-index/index.js";

const toBlob = (v: Float32Array): Uint8Array => new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice();
const fromBlob = (b: Uint8Array): Float32Array => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const toPgVector = (v: Float32Array): string => `[${Array.from(v).join(",")}]`;

/**
 * Dense vectors of chunks. The store's `context_vectors` table is the source of truth on both
 * backends (a BLOB on SQLite, pgvector on PostgreSQL). On SQLite an in-process HNSW index per
 * database and corpus answers kNN; it is fed incrementally as chunks land, saved next to the
 * store, and rebuilt from the table when its file is missing or disagrees with it.
 */
export class VectorStore {
  private readonly indexes = new Map<string, Promise<UsearchIndex>>();

  constructor(
    private readonly store: Store,
    private readonly indexDir: string,
  ) {}

  async insert(tx: Executor, databaseId: string, corpus: Corpus, keys: readonly number[], vectors: readonly Float32Array[]): Promise<void> {
    const rows = keys.map((key, i) => {
      const v = vectors[i]!;
      return {
        chunk_key: key,
        database_id: databaseId,
        corpus,
        dims: v.length,
        embedding: this.store.backend === "postgres" ? toPgVector(v) : toBlob(v),
      };
    });
    for (let i = 0; i < rows.length; i += 100) await tx.insertInto("context_vectors").values(rows.slice(i, i + 100)).execute();
  }

  /** After the insert committed: make the vectors searchable in the in-process index (SQLite). */
  async indexAdded(databaseId: string, corpus: Corpus, keys: readonly number[], vectors: readonly Float32Array[]): Promise<void> {
    if (this.store.backend !== "sqlite" || keys.length === 0) return;
    const index = await this.index(databaseId, corpus, vectors[0]!.length);
    keys.forEach((k, i) => index.add(k, vectors[i]!));
  }

  /** After the delete committed: drop the keys from the in-process index (SQLite). */
  async indexRemoved(databaseId: string, corpus: Corpus, keys: readonly number[]): Promise<void> {
    if (this.store.backend !== "sqlite" || keys.length === 0) return;
    const existing = this.indexes.get(this.name(databaseId, corpus));
    if (!existing) return;
    const index = await existing;
    for (const k of keys) index.remove(k);
  }

  async dropDatabase(databaseId: string): Promise<void> {
    for (const corpus of ["knowledge", "memory"] as const) this.indexes.delete(this.name(databaseId, corpus));
    rmSync(join(this.indexDir, databaseId), { recursive: true, force: true });
  }

  /** Writes every loaded index to disk (shutdown, and periodically by the caller). */
  async saveAll(): Promise<void> {
    for (const [name, pending] of this.indexes) {
      const index = await pending.catch(() => null);
      if (!index) continue;
      const [databaseId, corpus] = name.split(":") as [string, string];
      mkdirSync(join(this.indexDir, databaseId), { recursive: true });
      index.save(join(this.indexDir, databaseId, `${corpus}.usearch`));
    }
  }

  /** The loaded (or loaded now, or rebuilt now) index of a database and corpus. */
  index(databaseId: string, corpus: Corpus, dimensions: number): Promise<UsearchIndex> {
    const name = this.name(databaseId, corpus);
    let pending = this.indexes.get(name);
    if (!pending) {
      pending = this.open(databaseId, corpus, dimensions);
      this.indexes.set(name, pending);
      pending.catch(() => this.indexes.delete(name));
    }
    return pending;
  }

  private name(databaseId: string, corpus: Corpus): string {
    return `${databaseId}:${corpus}`;
  }

  private async open(databaseId: string, corpus: Corpus, dimensions: number): Promise<UsearchIndex> {
    const count = await this.store.db
      .selectFrom("context_vectors")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("database_id", "=", databaseId)
      .where("corpus", "=", corpus)
      .executeTakeFirst();
    const expected = Number(count?.n ?? 0);
    const file = join(this.indexDir, databaseId, `${corpus}.usearch`);
    const index = new UsearchIndex({ dimensions });
    if (existsSync(file)) {
      try {
        index.load(file);
        if (index.size() === expected && index.dimensions === dimensions) return index;
      } catch {
        // a damaged or foreign file: rebuild below
      }
    }
    return this.rebuild(databaseId, corpus, dimensions);
  }

  private async rebuild(databaseId: string, corpus: Corpus, dimensions: number): Promise<UsearchIndex> {
    const index = new UsearchIndex({ dimensions });
    let after = -1;
    for (;;) {
      const rows = await this.store.db
        .selectFrom("context_vectors")
        .select(["chunk_key", "embedding", "dims"])
        .where("database_id", "=", databaseId)
        .where("corpus", "=", corpus)
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
    }
    return index;
  }
}
