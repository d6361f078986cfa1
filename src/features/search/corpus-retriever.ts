import type { VectorStore } from "./vector-store.js";
import type { Store } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import type { Visibility } from "../items/item-visibility.js";
import { ChunkStore } from "./chunk-store.js";
import type { ChunkRow } from "./hydrate.js";
import { tokenize } from "../../engines/bm25/index.js";
import type { Bm25Retriever } from "./bm25-retriever.js";
import { fuse, type Fused, type RankedList } from "./fusion.js";
import { episodeScores } from "./episode-context.js";

export interface CorpusQuery {
  orgId: string;
  databaseId: string;
  corpus: Corpus;
  collections: readonly string[];
  text: string;
  terms: readonly string[];
  queryBy: "hybrid" | "text";
  operator: "or" | "and" | "phrase";
  /** Dense weight in [0, 1]. */
  alpha: number;
  /** Candidates wanted from each retriever. */
  depth: number;
  /** Which items may be seen (scope, filters, ACL, expiry). */
  visible: Visibility;
  /** Whether `visible` restricts more than scope and expiry (filters, ACL): dense search then scores the allowed set. */
  restrictive: boolean;
  /** The query's embedding, still being computed while the lexical retrievers run. */
  vector: Promise<Float32Array | null>;
  /** Rank memories lexically in the episodes around this many best BM25 hits (episode-context.ts). */
  episodeSeeds?: number;
  /** Extra weighted query terms (thinking mode's pseudo-relevance feedback). */
  expansion?: readonly string[];
  /** Terms of the words a chat model suggested for the question: their own BM25 list in the fusion. */
  modelTerms?: readonly string[];
}

type Hits = ReadonlyArray<{ chunkKey: number; score: number }>;

/** What one retrieval ranked before fusion, for a second pass of the same query to reuse. */
export interface RetrievedLists {
  readonly exact: ReadonlySet<number> | null;
  readonly lexical: Hits;
  /** The lexical list as fused: memories' episode scores, else `lexical`. */
  readonly ranked: Hits;
  readonly dense: Hits;
  readonly phrase: readonly number[] | null;
}

// Below this many visible chunks, a filtered dense search scores every allowed chunk exactly,
// which is both correct (no filter starvation) and fast; above it the ANN index is oversampled.
const EXACT_FILTERED_LIMIT = 20_000;

// An episode is looked for within an hour either side of a seed's memory; at most 1,000 turns are read.
const EPISODE_SPAN_MS = 3_600_000;
const EPISODE_MEMBERS_LIMIT = 1_000;

// The chat model's words rank chunks that share no word with the question (a category's
// members, synonyms); their list weighs a little under the dense one's.
const MODEL_TERMS_WEIGHT = 0.25;

const normaliseText = (s: string): string => s.toLowerCase().replace(/\s+/g, " ").trim();

/**
 * The separate retrievers of one corpus (BM25, dense, phrase) and their fusion. Each is a
 * ranked list with its own raw scores; fusion.ts normalises and weighs them.
 */
export class CorpusRetriever {
  constructor(
    private readonly store: Store,
    private readonly bm25: Bm25Retriever,
    private readonly vectors: VectorStore,
  ) {}

  /**
   * The fused ranking and the ranked lists it fused; given `prior` (the lists of the same query
   * without `expansion`), only the expanded BM25 list is computed anew: thinking mode's second
   * pass does not repeat the first one's BM25, dense and phrase retrieval.
   */
  async retrieve(q: CorpusQuery, prior?: RetrievedLists): Promise<{ fused: Fused[]; lists: RetrievedLists }> {
    const scope = { orgId: q.orgId, databaseId: q.databaseId, corpus: q.corpus, collections: q.collections };
    // With filters or ACL, a small visible set is ranked exactly by every retriever.
    const allowed = q.restrictive && prior === undefined ? await this.visibleChunkKeys(q, EXACT_FILTERED_LIMIT + 1) : null;
    const exact = prior?.exact ?? (allowed !== null && allowed.length <= EXACT_FILTERED_LIMIT ? new Set(allowed) : null);
    if (q.queryBy === "text") {
      const op = q.operator === "phrase" ? "and" : q.operator;
      const hits = await this.bm25.search(scope, q.terms, q.operator === "phrase" ? q.depth * 5 : q.depth, op, q.visible, exact);
      const kept =
        q.operator === "phrase"
          ? (
              await this.phraseMatches(
                q,
                hits.map((h) => h.chunkKey),
                q.text,
              )
            ).slice(0, q.depth)
          : null;
      const ranked = kept ? hits.filter((h) => kept.includes(h.chunkKey)) : hits;
      return {
        fused: fuse([{ name: "bm25", hits: ranked }], { bm25: 1, dense: 0, phrase: 0 }),
        lists: { exact, lexical: ranked, ranked, dense: [], phrase: null },
      };
    }
    const lexicalHits = prior?.lexical ? Promise.resolve(prior.lexical) : this.bm25.search(scope, q.terms, q.depth, "or", q.visible, exact);
    // Read while the query's embedding is still being computed (it needs the BM25 hits only).
    const inEpisodes = q.episodeSeeds && prior === undefined ? lexicalHits.then((hits) => this.inEpisodes(q, hits, q.episodeSeeds!)) : Promise.resolve(null);
    const [lexical, expanded, suggested, vector, episodes] = await Promise.all([
      lexicalHits,
      q.expansion && q.expansion.length > 0 ? this.bm25.search(scope, [...q.terms, ...q.expansion], q.depth, "or", q.visible, exact) : Promise.resolve([]),
      q.modelTerms && q.modelTerms.length > 0 ? this.bm25.search(scope, q.modelTerms, q.depth, "or", q.visible, exact) : Promise.resolve([]),
      prior === undefined ? q.vector : Promise.resolve(null),
      inEpisodes,
    ]);
    const [phrase, dense] =
      prior !== undefined
        ? [prior.phrase, prior.dense]
        : await Promise.all([
            q.terms.length >= 2
              ? this.phraseMatches(
                  q,
                  lexical.map((h) => h.chunkKey),
                  q.text,
                )
              : Promise.resolve(null),
            vector ? this.dense(q, vector, exact) : Promise.resolve([]),
          ]);
    const ranked = episodes ?? prior?.ranked ?? lexical;
    const lists: RankedList[] = [
      { name: "bm25", hits: mergeLexical(ranked, expanded) },
      { name: "dense", hits: dense },
    ];
    if (phrase !== null) lists.push({ name: "phrase", hits: phrase.map((k) => ({ chunkKey: k, score: 1 })) });
    if (suggested.length > 0) lists.push({ name: "expansion", hits: suggested });
    return {
      fused: fuse(lists, { dense: q.alpha, bm25: 1 - q.alpha, phrase: 0.15, expansion: MODEL_TERMS_WEIGHT }),
      lists: { exact, lexical, ranked, dense, phrase },
    };
  }

  /**
   * Conversation memories ranked lexically in their context (episode-context.ts): the turns of
   * the episodes around the best `seeds` BM25 hits, scored by their windows and episodes. Null
   * when there is no such context (no timestamps, no terms): the plain BM25 list stands.
   */
  private async inEpisodes(q: CorpusQuery, lexical: Hits, seeds: number): Promise<Hits | null> {
    const terms = [...new Set(q.terms)];
    if (terms.length === 0 || lexical.length === 0) return null;
    const members = await this.chunks.episodeMembers(
      q.visible,
      lexical.slice(0, seeds).map((h) => h.chunkKey),
      EPISODE_SPAN_MS,
      EPISODE_MEMBERS_LIMIT,
    );
    if (members.length === 0) return null;
    const scope = { orgId: q.orgId, databaseId: q.databaseId, corpus: q.corpus, collections: q.collections };
    const { counts, stats } = this.bm25.termCounts(
      scope,
      terms,
      members.map((m) => m.chunkKey),
    );
    return episodeScores(members, counts, stats);
  }

  /** A hydrated chunk's indexed terms (thinking mode's feedback terms and diversity). */
  termsOf(chunk: ChunkRow): readonly string[] {
    const scope = { orgId: chunk.org_id, databaseId: chunk.database_id, corpus: chunk.corpus, collection: chunk.collection };
    return this.bm25.termsOf(scope, chunk.chunk_key, chunk.content);
  }

  private async dense(q: CorpusQuery, vector: Float32Array, exact: ReadonlySet<number> | null): Promise<Array<{ chunkKey: number; score: number }>> {
    if (exact !== null) return (await this.vectors.scoreAmong(q, vector, [...exact])).slice(0, q.depth);
    const hits: Array<{ chunkKey: number; score: number }> = [];
    for (const collection of q.collections) {
      hits.push(
        ...(await this.vectors.search(
          { orgId: q.orgId, databaseId: q.databaseId, corpus: q.corpus, collection },
          vector,
          q.restrictive ? q.depth * 8 : q.depth,
        )),
      );
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  private async visibleChunkKeys(q: CorpusQuery, limit: number): Promise<number[]> {
    return this.chunks.visibleChunkKeys(q.visible, q.corpus, limit);
  }

  private get chunks(): ChunkStore {
    return new ChunkStore(this.store.reader, this.store.backend);
  }

  /**
   * Which of the chunks contain the query text as a phrase (case and spacing ignored). Only the
   * chunks whose indexed terms include every query term can: the others are not read (a
   * question rarely appears verbatim, so a hybrid query usually reads no content here).
   */
  private async phraseMatches(q: CorpusQuery, chunkKeys: readonly number[], text: string): Promise<number[]> {
    const phrase = normaliseText(text.replace(/^["']|["']$/g, ""));
    if (chunkKeys.length === 0 || phrase.length === 0) return [];
    const candidates = this.bm25.withEveryTerm({ orgId: q.orgId, databaseId: q.databaseId, corpus: q.corpus, collections: q.collections }, q.terms, chunkKeys);
    if (candidates.length === 0) return [];
    const rows = await this.chunks.contents(q, candidates);
    const matching = new Set(rows.filter((r) => normaliseText(r.content).includes(phrase)).map((r) => r.chunkKey));
    return chunkKeys.filter((k) => matching.has(k));
  }
}

/** Original-query BM25 dominates; expanded-query scores add at half weight. */
function mergeLexical(
  base: ReadonlyArray<{ chunkKey: number; score: number }>,
  expanded: ReadonlyArray<{ chunkKey: number; score: number }>,
): Array<{ chunkKey: number; score: number }> {
  if (expanded.length === 0) return [...base];
  const scores = new Map<number, number>();
  for (const h of base) scores.set(h.chunkKey, h.score);
  for (const h of expanded) scores.set(h.chunkKey, (scores.get(h.chunkKey) ?? 0) + 0.5 * h.score);
  return [...scores].map(([chunkKey, score]) => ({ chunkKey, score })).sort((a, b) => b.score - a.score);
}

export const queryTerms = (text: string): string[] => tokenize(text);
