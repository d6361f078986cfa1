import type { Store } from "../../platform/store/db.js";
import { InvertedIndex } from "../../engines/bm25/inverted-index.js";
import { TermStore, type TermScope } from "./term-store.js";

export type { TermScope };

interface Logger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

interface Entry {
  readonly index: InvertedIndex;
  /** Serialises loading and catching up, so two queries never add the same chunks twice. */
  sync: Promise<void>;
  /** Highest chunk key loaded, with when it was seen: catch-up reads from a key seen a while ago. */
  readonly seen: Array<{ at: number; key: number }>;
  lastReconcile: number;
  reconciling: boolean;
  lastUse: number;
}

/**
 * On PostgreSQL, catch-up rereads the chunks of this recent past: transactions commit out of key
 * order, so a chunk with a lower key than one already loaded can become visible later (SQLite has
 * one writer, so keys become visible in order). Older stragglers are found by the reconcile.
 */
const CATCH_UP_WINDOW_MS = 10_000;
/** How often a scope's chunk count is compared with the store's (deletions, missed chunks). */
const RECONCILE_EVERY_MS = 2_000;
const KEY_BATCH = 500;

/**
 * The in-process BM25 indexes, one per (database, corpus, collection), built from the stored
 * postings on first use and kept current: before each search a scope reads the chunks added
 * since it last looked (one index range probe); in the background it compares its document
 * count with the store's and, when they differ (deletions, upserts, other processes), adds what
 * it misses and drops what is gone. Every process keeps its own, from the same store, so API
 * processes on PostgreSQL rank exactly as the embedded node does. Least recently used scopes are
 * evicted beyond `maxPostings`.
 */
export class TermIndexes {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    readonly maxPostings = 50_000_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Postings held, over every loaded scope. */
  get postings(): number {
    return [...this.entries.values()].reduce((n, e) => n + e.index.size, 0);
  }

  /** The scope's index, current as of this call (additions) or of the last reconcile (removals). */
  async get(scope: TermScope): Promise<InvertedIndex> {
    const name = `${scope.orgId}\u0000${scope.databaseId}\u0000${scope.corpus}\u0000${scope.collection}`;
    let entry = this.entries.get(name);
    if (entry === undefined) {
      const created: Entry = { index: new InvertedIndex(), sync: Promise.resolve(), seen: [], lastReconcile: this.now(), reconciling: false, lastUse: 0 };
      created.sync = this.load(scope, created);
      created.sync.catch(() => this.entries.delete(name));
      this.entries.set(name, created);
      entry = created;
      this.evict(name);
    } else {
      const current = entry;
      current.sync = current.sync.then(() => this.catchUp(scope, current));
    }
    entry.lastUse = this.now();
    await entry.sync;
    if (this.now() - entry.lastReconcile >= RECONCILE_EVERY_MS && !entry.reconciling) void this.reconcile(scope, entry);
    return entry.index;
  }

  private async load(scope: TermScope, entry: Entry): Promise<void> {
    const keys = await this.chunksAfter(scope, -1);
    await this.addChunks(scope, entry, keys);
    // On a query, the line carries its request id (logger.ts); at warm-up, none.
    this.log.debug({ databaseId: scope.databaseId, corpus: scope.corpus, chunks: keys.length, postings: entry.index.size }, "search index loaded");
  }

  private async catchUp(scope: TermScope, entry: Entry): Promise<void> {
    // Checkpoints before the newest one older than the window are no longer needed.
    const cutoff = this.now() - (this.store.backend === "postgres" ? CATCH_UP_WINDOW_MS : 0);
    while (entry.seen.length > 1 && entry.seen[1]!.at <= cutoff) entry.seen.shift();
    const fresh = (await this.chunksAfter(scope, entry.seen[0]?.key ?? -1)).filter((c) => !entry.index.has(c.key));
    await this.addChunks(scope, entry, fresh);
  }

  /** Adds what the store has and the index misses, removes what the index has and the store lost. */
  private async reconcile(scope: TermScope, entry: Entry): Promise<void> {
    entry.reconciling = true;
    try {
      const stored = await this.countAfterCatchUp(scope, entry);
      if (stored !== entry.index.docCount) {
        entry.sync = entry.sync.then(async () => {
          const stored = await this.chunksAfter(scope, -1);
          const present = new Set(stored.map((c) => c.key));
          for (const key of entry.index.chunkKeys()) if (!present.has(key)) entry.index.remove(key);
          await this.addChunks(
            scope,
            entry,
            stored.filter((c) => !entry.index.has(c.key)),
          );
        });
        await entry.sync;
      }
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
   * The store's chunk count, read after the index caught up with the chunks added since it last
   * looked: while ingestion writes (continuously, under load) a count alone nearly always differs,
   * and rereading every key of a 100,000-chunk scope each time cost the request thread more than
   * the queries did. A chunk committed between the catch-up and the count gets one more try.
   */
  private async countAfterCatchUp(scope: TermScope, entry: Entry): Promise<number> {
    let stored = entry.index.docCount;
    for (let attempt = 0; attempt < 2; attempt++) {
      entry.sync = entry.sync.then(() => this.catchUp(scope, entry));
      await entry.sync;
      stored = await this.stored.countChunks(scope);
      if (stored <= entry.index.docCount) break;
    }
    return stored;
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
      const rows = await this.stored.postings(
        scope,
        batch.map((c) => c.key),
      );
      const terms = new Map<number, Array<[string, number]>>();
      for (const r of rows) {
        let list = terms.get(r.key);
        if (list === undefined) terms.set(r.key, (list = []));
        list.push([r.term, r.tf]);
      }
      for (const c of batch) entry.index.add(c.key, c.length, terms.get(c.key) ?? []);
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
