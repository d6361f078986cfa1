import { existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Store } from "../../platform/store/db.js";
import { InvertedIndex } from "../../engines/bm25/inverted-index.js";
import { readIndexFile, removeIndexFile, writeIndexFile } from "../../engines/bm25/index-file.js";
import { TermStore, type TermScope } from "./term-store.js";
import { indexFileStem } from "./index-file-stem.js";
import { yieldToEventLoop } from "../../platform/util/yield-to-event-loop.js";

export type { TermScope };

interface Logger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface Entry {
  readonly scope: TermScope;
  index: InvertedIndex;
  /** Changed since it was read from (or last written to) its file. */
  dirty: boolean;
  /** Serialises loading and catching up, so two queries never add the same chunks twice. */
  sync: Promise<void>;
  /**
   * The catch-up queued behind the running one and not started yet: queries arriving meanwhile
   * share it (it starts after they came, so it reads what they must see). One per query made a
   * chain as long as the queries waiting, each link a read of the store.
   */
  queued: Promise<void> | null;
  /** Highest chunk key loaded, with when it was seen: catch-up reads from a key seen a while ago. */
  readonly seen: Array<{ at: number; key: number }>;
  lastReconcile: number;
  reconciling: boolean;
  /** The slice of chunk keys the next reconcile compares. */
  nextSlice: number;
  lastUse: number;
}

/**
 * On PostgreSQL, catch-up rereads the chunks of this recent past: transactions commit out of key
 * order, so a chunk with a lower key than one already loaded can become visible later (SQLite has
 * one writer, so keys become visible in order). Older stragglers are found by the reconcile.
 */
const CATCH_UP_WINDOW_MS = 10_000;
/** How often a scope compares one slice of its chunks with the store's (deletions, missed chunks). */
const RECONCILE_EVERY_MS = 2_000;
/** About this many chunks per reconciled slice. */
const SLICE_CHUNKS = 8_192;
/**
 * Chunks whose postings one read brings in (about 2,000 rows), with a turn for other work between
 * reads: at 500 a catch-up behind a burst of ingestion held the request thread for 25 ms while
 * queries waited (bench:query --during-ingest).
 */
const KEY_BATCH = 64;

/** Chunks of a saved index compared, term by term, with the store's postings before it is used. */
const FILE_SAMPLE = 16;

export interface TermIndexesOptions {
  /** Postings held at most over every scope; least recently used scopes beyond it are dropped. */
  readonly maxPostings?: number;
  readonly now?: () => number;
  readonly sliceChunks?: number;
  /** Where each scope's index is saved at shutdown and read back at load (none: always from the store). */
  readonly fileDir?: string | null;
}

const entryName = (scope: TermScope): string => `${scope.orgId}\u0000${scope.databaseId}\u0000${scope.corpus}\u0000${scope.collection}`;

/**
 * The in-process BM25 indexes, one per (database, corpus, collection), built from the stored
 * postings on first use and kept current: before each search a scope reads the chunks added
 * since it last looked (one index range probe); in the background it compares its chunks with
 * the store's, a slice of keys at a time, and where they differ (deletions, upserts, other
 * processes) adds what it misses and drops what is gone. Every process keeps its own, from the same store, so API
 * processes on PostgreSQL rank exactly as the embedded node does. Least recently used scopes are
 * evicted beyond `maxPostings`.
 */
export class TermIndexes {
  private readonly entries = new Map<string, Entry>();
  /** Scopes loaded since the start: from their saved files, or from the stored postings. */
  readonly loads = { file: 0, store: 0 };

  readonly maxPostings: number;
  private readonly now: () => number;
  private readonly sliceChunks: number;
  private readonly fileDir: string | null;

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    options: TermIndexesOptions = {},
  ) {
    this.maxPostings = options.maxPostings ?? 100_000_000;
    this.now = options.now ?? Date.now;
    this.sliceChunks = options.sliceChunks ?? SLICE_CHUNKS;
    this.fileDir = options.fileDir ?? null;
  }

  /** Postings held, over every loaded scope. */
  get postings(): number {
    return [...this.entries.values()].reduce((n, e) => n + e.index.size, 0);
  }

  /**
   * The scope's index as loaded so far, without catching up (undefined until its first load
   * completes): for a second look at chunks a search of the same scope just ranked.
   */
  loaded(scope: TermScope): InvertedIndex | undefined {
    const entry = this.entries.get(entryName(scope));
    return entry !== undefined && entry.seen.length > 0 ? entry.index : undefined;
  }

  /** The scope's index, current as of this call (additions) or of the last reconcile (removals). */
  async get(scope: TermScope): Promise<InvertedIndex> {
    const name = entryName(scope);
    let entry = this.entries.get(name);
    if (entry === undefined) {
      const created: Entry = {
        scope,
        index: new InvertedIndex(),
        dirty: false,
        sync: Promise.resolve(),
        queued: null,
        seen: [],
        lastReconcile: this.now(),
        reconciling: false,
        nextSlice: 0,
        lastUse: 0,
      };
      created.sync = this.load(scope, created);
      created.sync.catch(() => this.entries.delete(name));
      this.entries.set(name, created);
      entry = created;
      this.evict(name);
    } else {
      const current = entry;
      if (current.queued === null) {
        const queued = current.sync.then(() => {
          current.queued = null;
          return this.catchUp(scope, current);
        });
        current.queued = queued;
        current.sync = queued;
      }
    }
    entry.lastUse = this.now();
    await entry.sync;
    if (this.now() - entry.lastReconcile >= RECONCILE_EVERY_MS && !entry.reconciling) void this.reconcile(scope, entry);
    return entry.index;
  }

  private async load(scope: TermScope, entry: Entry): Promise<void> {
    const keys = await this.chunksAfter(scope, -1);
    const saved = await this.readSaved(scope, keys);
    if (saved === undefined) {
      await this.addChunks(scope, entry, keys);
      this.loads.store += 1;
    } else {
      this.loads.file += 1;
      // The file is as the last process left it: chunks deleted since are dropped, chunks added
      // since (or after a crash, whose file predates them) are read from the store.
      const present = new Set(keys.map((c) => c.key));
      const gone = saved.keysBetween(-1, Number.MAX_SAFE_INTEGER).filter((key) => !present.has(key));
      for (const key of gone) saved.remove(key);
      entry.index = saved;
      // Rewritten at shutdown when it differed from the store either way (addChunks marks additions).
      entry.dirty = gone.length > 0;
      await this.addChunks(
        scope,
        entry,
        keys.filter((c) => !saved.has(c.key)),
      );
      const last = keys.at(-1)?.key;
      if (last !== undefined && last > (entry.seen.at(-1)?.key ?? -1)) entry.seen.push({ at: this.now(), key: last });
    }
    // On a query, the line carries its request id (logger.ts); at warm-up, none.
    this.log.debug(
      { databaseId: scope.databaseId, corpus: scope.corpus, chunks: keys.length, postings: entry.index.size, fromFile: saved !== undefined },
      "search index loaded",
    );
  }

  /** The scope's saved index, if it has a usable one: readable, and agreeing with the store on a sample of its chunks. */
  private async readSaved(scope: TermScope, keys: ReadonlyArray<{ key: number }>): Promise<InvertedIndex | undefined> {
    const file = this.fileOf(scope);
    if (file === null || !existsSync(file)) return undefined;
    try {
      const index = await readIndexFile(file);
      const stored = keys.filter((c) => index.has(c.key));
      // A file of another scope or store, or one most of whose chunks are gone: reading the store is the shorter way.
      if (stored.length * 2 < index.docCount) throw new Error(`only ${stored.length} of its ${index.docCount} chunks are in the store`);
      const sample = Array.from({ length: Math.min(FILE_SAMPLE, stored.length) }, (_, i) => stored[Math.floor((i * stored.length) / FILE_SAMPLE)]!.key);
      const postings = await this.stored.postings(scope, sample);
      for (const key of sample) {
        const want = (postings.get(key) ?? []).map(([term]) => term);
        const have = index.termsOf(key) ?? [];
        if (want.length !== have.length || !index.hasEveryTerm(key, want)) throw new Error(`chunk ${key} differs from the store's`);
      }
      return index;
    } catch (err) {
      this.log.warn(
        { err, databaseId: scope.databaseId, corpus: scope.corpus, collection: scope.collection },
        "saved search index not used; loading from the store",
      );
      removeIndexFile(file);
      return undefined;
    }
  }

  /**
   * Writes every loaded index changed since it was read to its file (shutdown), after its
   * running catch-up; an emptied scope's file is removed. A failed write is logged, not thrown:
   * the next start reads the store instead.
   */
  async saveAll(): Promise<void> {
    for (const entry of this.entries.values()) {
      const file = this.fileOf(entry.scope);
      if (file === null) continue;
      await entry.sync.catch(() => undefined);
      if (entry.seen.length === 0 || !entry.dirty) continue;
      try {
        // A scope emptied (or its database dropped) since its last reconcile leaves no file.
        if (entry.index.docCount === 0 || (await this.stored.countChunks(entry.scope, -1, Number.MAX_SAFE_INTEGER)) === 0) removeIndexFile(file);
        else {
          mkdirSync(dirname(file), { recursive: true });
          writeIndexFile(file, entry.index);
        }
        entry.dirty = false;
      } catch (err) {
        this.log.warn({ err, file }, "saving a search index failed; the next start loads it from the store");
      }
    }
  }

  private fileOf(scope: TermScope): string | null {
    if (this.fileDir === null) return null;
    return join(this.fileDir, `${indexFileStem(scope)}.bm25`);
  }

  private async catchUp(scope: TermScope, entry: Entry): Promise<void> {
    // Checkpoints before the newest one older than the window are no longer needed.
    const cutoff = this.now() - (this.store.backend === "postgres" ? CATCH_UP_WINDOW_MS : 0);
    while (entry.seen.length > 1 && entry.seen[1]!.at <= cutoff) entry.seen.shift();
    const fresh = (await this.chunksAfter(scope, entry.seen[0]?.key ?? -1)).filter((c) => !entry.index.has(c.key));
    await this.addChunks(scope, entry, fresh);
  }

  /** Compares the next slice of the scope's chunk keys with the store; fixes it when they differ. */
  private async reconcile(scope: TermScope, entry: Entry): Promise<void> {
    entry.reconciling = true;
    try {
      entry.sync = entry.sync.then(() => this.reconcileSlice(scope, entry));
      await entry.sync;
    } catch (err) {
      this.log.warn(
        { err, databaseId: scope.databaseId, corpus: scope.corpus, collection: scope.collection },
        "search index reconcile failed; the next one tries again",
      );
    } finally {
      entry.lastReconcile = this.now();
      entry.reconciling = false;
    }
  }

  /**
   * The keys up to the highest loaded are cut into slices of about SLICE_CHUNKS chunks, taken in
   * turn: the store's count of the slice's chunks is compared with the index's, in the sync chain
   * so that no catch-up moves either between the two. Equal unless chunks were deleted or missed;
   * then the slice's keys are read, what the store lost is removed and what the index misses is
   * added. Counting the whole scope each time took 37 ms of the request thread at 100,000 chunks,
   * every 2 s per scope and process; a slice takes a few milliseconds at any size, and every key
   * is looked at within (chunks / SLICE_CHUNKS) reconciles.
   */
  private async reconcileSlice(scope: TermScope, entry: Entry): Promise<void> {
    await this.catchUp(scope, entry);
    const last = entry.seen.at(-1)?.key ?? -1;
    if (last < 0) return;
    const slices = Math.max(1, Math.ceil(entry.index.docCount / this.sliceChunks));
    const width = Math.ceil((last + 1) / slices);
    const slice = entry.nextSlice % slices;
    entry.nextSlice = slice + 1;
    const after = slice * width - 1;
    const upTo = slice === slices - 1 ? last : Math.min(last, after + width);
    const indexed = entry.index.keysBetween(after, upTo);
    if ((await this.stored.countChunks(scope, after, upTo)) === indexed.length) return;
    const stored = await this.stored.chunksAfter(scope, after, upTo);
    const present = new Set(stored.map((c) => c.key));
    for (const key of indexed)
      if (!present.has(key)) {
        entry.index.remove(key);
        entry.dirty = true;
      }
    await this.addChunks(
      scope,
      entry,
      stored.filter((c) => !entry.index.has(c.key)),
    );
  }

  private async chunksAfter(scope: TermScope, after: number): Promise<Array<{ key: number; length: number }>> {
    return this.stored.chunksAfter(scope, after);
  }

  private get stored(): TermStore {
    return new TermStore(this.store.reader);
  }

  private async addChunks(scope: TermScope, entry: Entry, chunks: ReadonlyArray<{ key: number; length: number }>): Promise<void> {
    for (let i = 0; i < chunks.length; i += KEY_BATCH) {
      const batch = chunks.slice(i, i + KEY_BATCH);
      const terms = await this.stored.postings(
        scope,
        batch.map((c) => c.key),
      );
      for (const c of batch) entry.index.add(c.key, c.length, terms.get(c.key) ?? []);
      entry.dirty = true;
      // Requests get their turn between batches (a whole load otherwise holds the thread).
      if (i + KEY_BATCH < chunks.length) await yieldToEventLoop();
    }
    const last = chunks.reduce((max, c) => Math.max(max, c.key), entry.seen.at(-1)?.key ?? -1);
    if (last > (entry.seen.at(-1)?.key ?? -1)) entry.seen.push({ at: this.now(), key: last });
  }

  private evict(keep: string): void {
    let total = this.postings;
    const byAge = [...this.entries].filter(([name]) => name !== keep).sort((a, b) => a[1].lastUse - b[1].lastUse);
    for (const [name, entry] of byAge) {
      if (total <= this.maxPostings) return;
      this.entries.delete(name);
      total -= entry.index.size;
    }
  }
}
