import { bm25Idf, DEFAULT_BM25_PARAMS, type Bm25Params } from "./bm25.js";

type TypedArray = Int32Array | Uint16Array | Uint8Array;

/** A copy of `a` in a larger array of the same type. */
function enlarged<A extends TypedArray>(a: A, size: number): A {
  const out = new (a.constructor as new (length: number) => A)(size);
  out.set(a);
  return out;
}

/** One term's postings: local document ids and term frequencies, in growable typed arrays. */
class Postings {
  ids = new Int32Array(4);
  tfs = new Uint16Array(4);
  length = 0;
  /** Live documents containing the term (dead postings stay in the arrays until compaction). */
  df = 0;
  /** Highest term frequency and shortest document ever added: bound every posting's score (removals keep them valid). */
  maxTf = 0;
  minLength = Number.MAX_SAFE_INTEGER;

  push(id: number, tf: number, length: number): void {
    if (this.length === this.ids.length) {
      this.ids = enlarged(this.ids, this.ids.length * 2);
      this.tfs = enlarged(this.tfs, this.tfs.length * 2);
    }
    this.ids[this.length] = id;
    this.tfs[this.length] = Math.min(tf, 65_535);
    this.length += 1;
    this.df += 1;
    this.maxTf = Math.max(this.maxTf, Math.min(tf, 65_535));
    this.minLength = Math.min(this.minLength, length);
  }

  /** The first position at or after `from` whose id is at least `id` (ids ascend): galloping, then binary search. */
  seek(from: number, id: number): number {
    const ids = this.ids;
    if (from >= this.length || ids[from]! >= id) return from;
    let step = 1;
    let lo = from;
    let hi = from + 1;
    while (hi < this.length && ids[hi]! < id) {
      lo = hi;
      step *= 2;
      hi = Math.min(this.length, hi + step);
    }
    // ids[lo] < id, and ids[hi] >= id or hi = length
    while (lo + 1 < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid]! < id) lo = mid;
      else hi = mid;
    }
    return hi;
  }
}

/**
 * One term's BM25 share of a document's score; `norm` is k1 x (1 - b + b x length / average length).
 * Every walk sums these in the same order, so their scores agree bit for bit.
 */
const termScore = (idf: number, tf: number, k1: number, norm: number): number => (idf * tf * (k1 + 1)) / (tf + norm);

/**
 * An index's live documents, renumbered 0..n-1 in the order they were added, and each term's
 * postings over those numbers (ascending), every term's laid end to end in `ids` and `tfs`:
 * what `InvertedIndex.snapshot` gives and `InvertedIndex.restore` takes (index-file.ts writes and
 * reads it).
 */
export interface IndexSnapshot {
  readonly keys: Int32Array<ArrayBuffer>;
  readonly lengths: Int32Array<ArrayBuffer>;
  readonly terms: ReadonlyArray<{ readonly name: string; readonly count: number; readonly maxTf: number; readonly minLength: number }>;
  readonly ids: Int32Array<ArrayBuffer>;
  readonly tfs: Uint16Array<ArrayBuffer>;
  /** Each document's terms (numbers into `terms`), document after document, `termCounts[d]` of them each. */
  readonly termCounts: Int32Array<ArrayBuffer>;
  readonly docTerms: Int32Array<ArrayBuffer>;
}

export interface ScoredKey {
  readonly chunkKey: number;
  readonly score: number;
}

/**
 * An in-memory BM25 inverted index of one scope's chunks, keyed by the store's chunk keys.
 * Documents are added and removed incrementally; removal is exact for the statistics (document
 * count, lengths, document frequencies) and lazy for the postings, which are compacted once a
 * quarter of them are dead.
 */
export class InvertedIndex {
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  private readonly postings: Postings[] = [];
  private readonly localOf = new Map<number, number>();
  private keys = new Int32Array(1024);
  private lengths = new Int32Array(1024);
  private alive = new Uint8Array(1024);
  private docTerms: Array<Int32Array | undefined> = [];
  private nextLocal = 0;
  private deadPostings = 0;
  private scratch = new Float64Array(0);
  private matched = new Uint16Array(0);
  private livePostings = 0;
  docCount = 0;
  totalLength = 0;

  has(chunkKey: number): boolean {
    return this.localOf.has(chunkKey);
  }

  /** The live chunk keys above `after` and up to `upTo`, in no particular order. */
  keysBetween(after: number, upTo: number): number[] {
    const out: number[] = [];
    const keys = this.keys;
    const alive = this.alive;
    for (let local = 0; local < this.nextLocal; local++) {
      const key = keys[local]!;
      if (alive[local] === 1 && key > after && key <= upTo) out.push(key);
    }
    return out;
  }

  /** The terms of a live chunk, each once; undefined for a chunk the index lacks. */
  termsOf(chunkKey: number): string[] | undefined {
    const local = this.localOf.get(chunkKey);
    const own = local === undefined ? undefined : this.docTerms[local];
    return own === undefined ? undefined : Array.from(own, (id) => this.termNames[id]!);
  }

  /**
   * A live chunk's length and its frequency of each of `terms` (0 where absent), read from the
   * postings; undefined for a chunk the index lacks.
   */
  termCounts(chunkKey: number, terms: readonly string[]): { length: number; tfs: number[] } | undefined {
    const local = this.localOf.get(chunkKey);
    if (local === undefined || this.docTerms[local] === undefined) return undefined;
    const tfs = terms.map((term) => {
      const id = this.termIds.get(term);
      if (id === undefined) return 0;
      const p = this.postings[id]!;
      const at = p.seek(0, local);
      return at < p.length && p.ids[at] === local ? p.tfs[at]! : 0;
    });
    return { length: this.lengths[local]!, tfs };
  }

  /** Whether the live chunk holds every one of `terms` (false for a chunk the index lacks). */
  hasEveryTerm(chunkKey: number, terms: readonly string[]): boolean {
    const local = this.localOf.get(chunkKey);
    const own = local === undefined ? undefined : this.docTerms[local];
    if (own === undefined) return false;
    return terms.every((term) => {
      const id = this.termIds.get(term);
      return id !== undefined && own.includes(id);
    });
  }

  /** The live documents and their postings, compacted (the index itself is not changed). */
  snapshot(): IndexSnapshot {
    const renumbered = new Int32Array(this.nextLocal).fill(-1);
    let n = 0;
    for (let local = 0; local < this.nextLocal; local++) if (this.alive[local] === 1) renumbered[local] = n++;
    const keys = new Int32Array(n);
    const lengths = new Int32Array(n);
    const termCounts = new Int32Array(n);
    for (let local = 0; local < this.nextLocal; local++) {
      const at = renumbered[local]!;
      if (at < 0) continue;
      keys[at] = this.keys[local]!;
      lengths[at] = this.lengths[local]!;
      termCounts[at] = this.docTerms[local]!.length;
    }
    // Terms no live document holds are left out; the rest are numbered in order.
    const termNumber = new Int32Array(this.postings.length).fill(-1);
    let kept = 0;
    this.postings.forEach((p, id) => {
      if (p.df > 0) termNumber[id] = kept++;
    });
    const ids = new Int32Array(this.livePostings);
    const tfs = new Uint16Array(this.livePostings);
    let w = 0;
    const terms = this.postings.flatMap((p, id) => {
      if (p.df === 0) return [];
      for (let r = 0; r < p.length; r++) {
        const at = renumbered[p.ids[r]!]!;
        if (at < 0) continue;
        ids[w] = at;
        tfs[w] = p.tfs[r]!;
        w += 1;
      }
      return [{ name: this.termNames[id]!, count: p.df, maxTf: p.maxTf, minLength: p.minLength }];
    });
    const docTerms = new Int32Array(this.livePostings);
    w = 0;
    for (let local = 0; local < this.nextLocal; local++) {
      if (renumbered[local]! < 0) continue;
      for (const id of this.docTerms[local]!) docTerms[w++] = termNumber[id]!;
    }
    return { keys, lengths, terms, ids, tfs, termCounts, docTerms };
  }

  /**
   * An index holding exactly the snapshot's documents; each term's postings are views of the
   * snapshot's arrays until they grow. The snapshot must be well formed (index-file.ts checks a
   * file's): counts summing to the postings, ids ascending per term and below the key count,
   * each document's term list as long as its count, term numbers below the term count.
   */
  static restore(snapshot: IndexSnapshot): InvertedIndex {
    const index = new InvertedIndex();
    const n = snapshot.keys.length;
    const capacity = Math.max(1024, n);
    index.keys = enlarged(snapshot.keys, capacity);
    index.lengths = enlarged(snapshot.lengths, capacity);
    index.alive = new Uint8Array(capacity);
    index.alive.fill(1, 0, n);
    index.nextLocal = n;
    index.docCount = n;
    for (let local = 0; local < n; local++) {
      index.localOf.set(snapshot.keys[local]!, local);
      index.totalLength += snapshot.lengths[local]!;
    }
    if (index.localOf.size !== n) throw new Error("an index snapshot holds a chunk key twice");
    // Each document's own term list: a view of the snapshot's, read in order (inverting the
    // postings instead wrote 54 million entries in random order: 11.5 s at 1,000,000 chunks).
    const docTerms = new Array<Int32Array | undefined>(n);
    for (let local = 0, at = 0; local < n; local++) {
      const count = snapshot.termCounts[local]!;
      docTerms[local] = snapshot.docTerms.subarray(at, at + count);
      at += count;
    }
    let start = 0;
    snapshot.terms.forEach((t, id) => {
      const p = new Postings();
      p.ids = snapshot.ids.subarray(start, start + t.count);
      p.tfs = snapshot.tfs.subarray(start, start + t.count);
      start += t.count;
      p.length = t.count;
      p.df = t.count;
      p.maxTf = t.maxTf;
      p.minLength = t.minLength;
      index.termIds.set(t.name, id);
      index.termNames.push(t.name);
      index.postings.push(p);
    });
    index.livePostings = start;
    index.docTerms = docTerms;
    return index;
  }

  /** Postings held, live and dead: the index's memory footprint in units. */
  get size(): number {
    return this.livePostings + this.deadPostings;
  }

  add(chunkKey: number, length: number, terms: ReadonlyArray<readonly [string, number]>): void {
    if (this.localOf.has(chunkKey)) return;
    const local = this.nextLocal++;
    if (local === this.keys.length) this.grow();
    this.localOf.set(chunkKey, local);
    this.keys[local] = chunkKey;
    this.lengths[local] = length;
    this.alive[local] = 1;
    const ids = new Int32Array(terms.length);
    terms.forEach(([term, tf], i) => {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.postings.length;
        this.termIds.set(term, id);
        this.termNames.push(term);
        this.postings.push(new Postings());
      }
      this.postings[id]!.push(local, tf, length);
      ids[i] = id;
    });
    this.docTerms[local] = ids;
    this.docCount += 1;
    this.totalLength += length;
    this.livePostings += terms.length;
  }

  remove(chunkKey: number): void {
    const local = this.localOf.get(chunkKey);
    if (local === undefined) return;
    this.localOf.delete(chunkKey);
    this.alive[local] = 0;
    const ids = this.docTerms[local] ?? new Int32Array(0);
    for (const id of ids) this.postings[id]!.df -= 1;
    this.docTerms[local] = undefined;
    this.docCount -= 1;
    this.totalLength -= this.lengths[local]!;
    this.livePostings -= ids.length;
    this.deadPostings += ids.length;
    if (this.deadPostings > 1_000 && this.deadPostings > this.livePostings / 3) this.compact();
  }

  docFreq(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.postings[id]!.df;
  }

  /**
   * Scores the live documents matching any of `weighted` (BM25; `idf` and `avgLength` come from
   * the statistics of every index searched together, so several collections rank as one corpus)
   * and offers those with at least `minMatched` matching terms to `top`. Synchronous, so the
   * scratch arrays can be shared between calls. With one matching term enough (`or`), documents
   * that cannot reach `top` are skipped unscored (MaxScore); the result is the same.
   */
  collect(
    weighted: ReadonlyArray<{ readonly term: string; readonly idf: number }>,
    avgLength: number,
    allowed: ReadonlySet<number> | null,
    minMatched: number,
    top: TopK,
    params: Bm25Params = DEFAULT_BM25_PARAMS,
  ): void {
    if (minMatched <= 1) {
      this.collectMaxScore(weighted, avgLength, allowed, top, params);
      return;
    }
    const { k1, b } = params;
    if (this.scratch.length < this.nextLocal) {
      this.scratch = new Float64Array(this.keys.length);
      this.matched = new Uint16Array(this.keys.length);
    }
    const scores = this.scratch;
    const matched = this.matched;
    const alive = this.alive;
    const keys = this.keys;
    const lengths = this.lengths;
    const touched: number[] = [];
    for (const { term, idf } of weighted) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const p = this.postings[id]!;
      const ids = p.ids;
      const tfs = p.tfs;
      const n = p.length;
      for (let i = 0; i < n; i++) {
        const local = ids[i]!;
        if (alive[local] === 0) continue;
        if (allowed !== null && !allowed.has(keys[local]!)) continue;
        const tf = tfs[i]!;
        if (matched[local] === 0) touched.push(local);
        scores[local]! += termScore(idf, tf, k1, k1 * (1 - b + (b * lengths[local]!) / avgLength));
        matched[local]! += 1;
      }
    }
    for (const local of touched) {
      if (matched[local]! >= minMatched) top.offer(keys[local]!, scores[local]!);
      scores[local] = 0;
      matched[local] = 0;
    }
  }

  /**
   * MaxScore (Turtle and Flood, 1995): the terms' score bounds, sorted, split them into essential
   * terms, whose postings are walked document by document, and non-essential ones, whose bounds
   * together cannot reach the k-th best score: a document found only in those is never looked
   * at, and a candidate probes them (by seeking) only while its bound can still reach the k-th
   * score. Each document's score is summed in `weighted` order, as the exhaustive walk sums it,
   * so scores and ties are bit for bit the same.
   */
  private collectMaxScore(
    weighted: ReadonlyArray<{ readonly term: string; readonly idf: number }>,
    avgLength: number,
    allowed: ReadonlySet<number> | null,
    top: TopK,
    params: Bm25Params,
  ): void {
    const { k1, b } = params;
    const norm = (length: number): number => k1 * (1 - b + (b * length) / avgLength);
    const lists: Array<{ p: Postings; idf: number; order: number; bound: number; pos: number }> = [];
    weighted.forEach(({ term, idf }, order) => {
      const id = this.termIds.get(term);
      if (id === undefined) return;
      const p = this.postings[id]!;
      if (p.length === 0) return;
      lists.push({ p, idf, order, bound: termScore(idf, p.maxTf, k1, norm(p.minLength)), pos: 0 });
    });
    if (lists.length === 0) return;
    lists.sort((x, y) => x.bound - y.bound);
    // below[i]: the sum of the bounds of lists 0..i-1
    const below = [0];
    for (const l of lists) below.push(below.at(-1)! + l.bound);
    const parts = new Float64Array(weighted.length);
    // Lists before `essential` are non-essential; the bounds are padded so that rounding never skips a tie.
    const reaches = (bound: number, threshold: number): boolean => bound >= threshold - 1e-9 * Math.max(1, Math.abs(threshold));
    let threshold = top.threshold();
    let essential = 0;
    while (essential < lists.length && !reaches(below[essential + 1]!, threshold)) essential++;
    for (;;) {
      let doc = Number.MAX_SAFE_INTEGER;
      for (let i = essential; i < lists.length; i++) {
        const l = lists[i]!;
        if (l.pos < l.p.length && l.p.ids[l.pos]! < doc) doc = l.p.ids[l.pos]!;
      }
      if (doc === Number.MAX_SAFE_INTEGER) return;
      const visible = this.alive[doc] !== 0 && (allowed === null || allowed.has(this.keys[doc]!));
      const docNorm = norm(this.lengths[doc]!);
      parts.fill(0);
      let sum = 0;
      for (let i = essential; i < lists.length; i++) {
        const l = lists[i]!;
        if (l.pos < l.p.length && l.p.ids[l.pos] === doc) {
          if (visible) {
            const tf = l.p.tfs[l.pos]!;
            const part = termScore(l.idf, tf, k1, docNorm);
            parts[l.order] = part;
            sum += part;
          }
          l.pos++;
        }
      }
      if (!visible) continue;
      let i = essential - 1;
      for (; i >= 0 && reaches(sum + below[i + 1]!, threshold); i--) {
        const l = lists[i]!;
        l.pos = l.p.seek(l.pos, doc);
        if (l.pos < l.p.length && l.p.ids[l.pos] === doc) {
          const tf = l.p.tfs[l.pos]!;
          const part = termScore(l.idf, tf, k1, docNorm);
          parts[l.order] = part;
          sum += part;
        }
      }
      if (i >= 0) continue; // its bound fell short of the k-th score before every term was read
      let score = 0;
      for (let j = 0; j < parts.length; j++) score += parts[j]!;
      top.offer(this.keys[doc]!, score);
      const raised = top.threshold();
      if (raised > threshold) {
        threshold = raised;
        while (essential < lists.length && !reaches(below[essential + 1]!, threshold)) essential++;
      }
    }
  }

  private grow(): void {
    const size = this.keys.length * 2;
    this.keys = enlarged(this.keys, size);
    this.lengths = enlarged(this.lengths, size);
    this.alive = enlarged(this.alive, size);
  }

  /** Drops dead postings (local ids of removed documents are not reused). */
  private compact(): void {
    for (const p of this.postings) {
      let w = 0;
      for (let r = 0; r < p.length; r++) {
        if (this.alive[p.ids[r]!] === 0) continue;
        p.ids[w] = p.ids[r]!;
        p.tfs[w] = p.tfs[r]!;
        w += 1;
      }
      p.length = w;
    }
    this.deadPostings = 0;
  }
}

/**
 * BM25 over several indexes ranked as one corpus (Lucene idf, k1 / b as configured): the top `k`
 * chunks, best first, ties by chunk key. `and` keeps chunks containing every query term;
 * `allowed`, when given, restricts the result to those chunk keys.
 */
export function searchBm25(
  indexes: readonly InvertedIndex[],
  terms: readonly string[],
  k: number,
  operator: "or" | "and",
  allowed: ReadonlySet<number> | null = null,
  params: Bm25Params = DEFAULT_BM25_PARAMS,
): ScoredKey[] {
  const unique = [...new Set(terms)];
  const docCount = indexes.reduce((n, i) => n + i.docCount, 0);
  if (unique.length === 0 || docCount === 0 || k <= 0) return [];
  const avgLength = Math.max(1, indexes.reduce((n, i) => n + i.totalLength, 0) / docCount);
  const weighted = unique.flatMap((term) => {
    const df = indexes.reduce((n, i) => n + i.docFreq(term), 0);
    return df > 0 ? [{ term, idf: bm25Idf(docCount, df) }] : [];
  });
  if (weighted.length === 0 || (operator === "and" && weighted.length < unique.length)) return [];
  const top = new TopK(k);
  for (const index of indexes) index.collect(weighted, avgLength, allowed, operator === "and" ? weighted.length : 1, top, params);
  return top.sorted();
}

const better = (a: ScoredKey, b: ScoredKey): boolean => a.score > b.score || (a.score === b.score && a.chunkKey < b.chunkKey);

/** The k best offers, kept in a bounded min-heap: O(n log k) where a full sort would be O(n log n). */
export class TopK {
  private readonly heap: ScoredKey[] = [];

  constructor(private readonly k: number) {}

  /** The score an offer must reach to enter: the k-th best once k are held, otherwise -Infinity. */
  threshold(): number {
    return this.heap.length < this.k ? -Infinity : this.heap[0]!.score;
  }

  offer(chunkKey: number, score: number): void {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push({ chunkKey, score });
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!better(heap[parent]!, heap[i]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (score > heap[0]!.score || (score === heap[0]!.score && chunkKey < heap[0]!.chunkKey)) {
      // Most offers lose to the heap's minimum: compared before anything is allocated.
      heap[0] = { chunkKey, score };
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && better(heap[m]!, heap[l]!)) m = l;
        if (r < heap.length && better(heap[m]!, heap[r]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
  }

  /** Best first, ties by chunk key. */
  sorted(): ScoredKey[] {
    return [...this.heap].sort((a, b) => (better(a, b) ? -1 : 1));
  }
}
