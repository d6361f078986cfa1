import type { SharedEmbedder } from "../../engines/embeddings/shared-embedder.js";
import type { SchemaField } from "../databases/metadata-schema.js";
import { defaultCollectionOf, type DatabaseService } from "../databases/service.js";
import { tenancyOf } from "../databases/tenancy.js";
import { expandPrincipals } from "../items/acl.js";
import { checkFilterClauses, type Visibility } from "../items/item-visibility.js";
import type { QueryLog } from "../feedback/query-log.js";
import type { Store } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import { autoAlpha, interpolate, type Fused } from "./fusion.js";
import { CorpusRetriever, queryTerms } from "./corpus-retriever.js";
import { diversify, feedbackTerms, spreadGroups } from "./expansion.js";
import type { GraphContext, GraphProvider, RetrievedChunkRef } from "./graph-provider-contract.js";
import { emptyGraphContext } from "./graph-provider-contract.js";
import { ChunkStore } from "./chunk-store.js";
import { chunksOfItems, completed, hydrate, type Candidate, type Hydrated } from "./hydrate.js";
import { chunkView, sourceView } from "./result-views.js";
import type { SplitFilters } from "./filters.js";
import { neighbourChunks, spreadToNeighbours } from "./chunk-neighbours.js";
import { NO_QUERY_MODELS, withModelScores, type QueryModels } from "./query-models.js";
import { questionWords, titleInQuery, titleWords } from "./title-match.js";

export interface QueryInput {
  orgId: string;
  requestId: string;
  database: string;
  collections: readonly string[] | null;
  query: string;
  type: "knowledge" | "memory" | "all";
  queryBy: "hybrid" | "text";
  operator: "or" | "and" | "phrase";
  mode: "fast" | "thinking";
  graphContext: boolean;
  forceful: boolean;
  /** Include items synced by connectors (query_apps); false leaves them out. */
  queryApps: boolean;
  /** Only these items (source ids) are searched; null: no restriction. The extras are not restricted (they are what results point at). */
  ids: readonly string[] | null;
  filters: (schema: readonly SchemaField[]) => SplitFilters;
  maxResults: number;
  alpha: number | "auto";
  recencyBias: number;
  principals: readonly string[] | null;
}

export interface QueryResult {
  success: true;
  message: string;
  chunks: Array<Record<string, unknown>>;
  sources: Array<Record<string, unknown>>;
  graph_context?: GraphContext;
  additional_context: Record<string, Record<string, unknown>>;
}

/** What the extras (forceful relations, connected items, graph context) may reach. */
interface ExtrasScope {
  orgId: string;
  databaseId: string;
  collections: readonly string[];
  principals: readonly string[] | null;
  excludeConnectorItems: boolean;
}

interface Scored {
  h: Candidate;
  score: number;
}

interface Shown {
  h: Hydrated;
  score: number;
}

const DAY_MS = 86_400_000;
// Measured on LoCoMo (bench:retrieval): a named speaker's turns x1.5; hits lend half of their
// score to the neighbouring turns or chunks (on memories, since they are ranked in their episodes,
// 0.7 put thinking below fast: R@10 0.790 against 0.791, with 0.5 0.793; on knowledge thinking's
// 0.7 put its MRR below fast's on the HotpotQA development set, 0.948 against 0.956, with 0.5 and
// the second pass blended below 0.958); the top 20 hits seed.
// Thinking goes two hops out on memories (turns of a conversation) and one on knowledge: on the
// knowledge set of bench:peers a second hop of neighbouring chunks crowded out other documents
// (thinking R@10 0.950, below fast's 0.960; with one hop 0.970), on LoCoMo it helps (0.758 against 0.749).
const SPEAKER_BOOST = 0.5;
const NEIGHBOUR_WEIGHT = { fast: { memory: 0.5, knowledge: 0.5 }, thinking: { memory: 0.5, knowledge: 0.5 } } as const;
const NEIGHBOUR_HOPS = { fast: { memory: 1, knowledge: 1 }, thinking: { memory: 2, knowledge: 1 } } as const;
const NEIGHBOUR_SEEDS = 20;
// Memories are ranked lexically in their episodes (episode-context.ts) around the best 20 BM25
// hits: on LoCoMo fast R@10 0.745 to 0.79 (seeds from the fused ranking, or 50 or 100 of them,
// measured the same; from BM25 the episodes are read while the query's embedding is computed).
const EPISODE_SEEDS = 20;
// Thinking mode's second pass (pseudo-relevance feedback, a chat model's words) is blended into the
// first ranking with this weight rather than replacing it, as RM3 keeps the original query: in full
// it lifted a top-5 chunk's shared words over the item the question names (HotpotQA development set,
// thinking MRR 0.943 against fast's 0.956). With the neighbour weight 0.5: 0.3 gave MRR 0.958 and
// R@10 0.915 there but the knowledge set of bench:peers R@10 0.960, as fast; 0.5 gives 0.958 / 0.910
// and 0.970 (R@1 0.480 against fast's 0.440); 0.7 0.970 too.
const SECOND_PASS_WEIGHT = 0.5;
// Thinking mode's results hold at most 3 chunks of one item before every other item has had its
// turn (the rest follow in order). On the knowledge set of bench:peers, one document's neighbouring
// chunks had filled a question's list: thinking R@10 0.950 against fast's 0.960; with this 0.970
// (3 or 5 a document gave the same). LoCoMo's memories are one chunk each: unchanged.
const THINKING_PER_ITEM = 3;

/** A query's text as speakerBoost and titleBoost read it: lowercased, and its words. */
interface QueryWords {
  readonly text: string;
  readonly words: ReadonlySet<string>;
  readonly sequence: readonly string[];
}

const queryWords = (query: string): QueryWords => {
  const text = query.toLowerCase();
  return { text, words: new Set(text.split(/[^\p{L}\p{N}]+/u)), sequence: questionWords(query) };
};

// Measured on the knowledge development set (bench:retrieval --set hotpot, fast): x1.3 R@2 0.690,
// x1.5 0.715, x2 0.720 (MRR 0.938 / 0.955 / 0.943; 0.615 and 0.908 without); bench:peers'
// knowledge set unchanged (its titles are file names the questions do not spell).
const TITLE_BOOST = 0.5;

/** A knowledge item the question names by its title ranks higher (title-match.ts). */
function titleBoost(h: Candidate, query: QueryWords): number {
  if (h.item.corpus !== "knowledge") return 1;
  return titleInQuery(titleWords(h.item.title), query.sequence) ? 1 + TITLE_BOOST : 1;
}

/** A memory spoken by someone the question names ranks higher (speaker metadata, user_name). */
function speakerBoost(h: Candidate, query: QueryWords): number {
  const name = h.item.user_name?.trim().toLowerCase();
  if (h.item.corpus !== "memory" || !name) return 1;
  const first = name.split(/\s+/)[0]!;
  return query.words.has(first) || query.text.includes(name) ? 1 + SPEAKER_BOOST : 1;
}

/**
 * POST /query: retrieves per corpus (in parallel for `all`), fuses, hydrates with the final
 * visibility check, and in thinking mode expands the query, diversifies and adds forcefully
 * related items. Every answered query is logged so feedback can refer to it.
 */
export class QueryService {
  private readonly retriever: CorpusRetriever;

  constructor(
    private readonly store: Store,
    private readonly databases: DatabaseService,
    private readonly embedder: SharedEmbedder,
    retriever: CorpusRetriever,
    private readonly graph: GraphProvider,
    private readonly queryLog: QueryLog,
    private readonly now: () => number = Date.now,
    private readonly models: QueryModels = NO_QUERY_MODELS,
  ) {
    this.retriever = retriever;
  }

  async query(input: QueryInput): Promise<QueryResult> {
    const database = await this.databases.get(input.orgId, input.database);
    const collections = input.collections && input.collections.length > 0 ? input.collections : [defaultCollectionOf(database)];
    const schema = JSON.parse(database.metadata_schema) as SchemaField[];
    const filters = input.filters(schema);
    const principals = input.principals ? expandPrincipals(input.principals) : null;
    const corpora: Corpus[] = input.type === "all" ? ["knowledge", "memory"] : [input.type];
    const visibleFor = (corpus: Corpus): Visibility => ({
      orgId: database.org_id,
      databaseId: database.id,
      collection: collections[0]!,
      collections,
      corpora: [corpus],
      ids: input.ids,
      metadata: filters.metadata,
      additional: filters.additional,
      sourceFields: {},
      principals,
      now: this.now(),
      excludeConnectorItems: !input.queryApps,
    });
    // Before any work: a request with too many filter clauses is refused whole.
    checkFilterClauses(visibleFor(corpora[0] ?? "knowledge"));
    const terms = queryTerms(input.query);
    const alpha = input.alpha === "auto" ? autoAlpha(input.query, terms.length) : input.alpha;
    // The embedding is computed (in the embedder's thread) while the lexical retrievers run.
    const vector = input.queryBy === "hybrid" ? this.embedder.embedNow([input.query]).then((v) => v[0] ?? null) : Promise.resolve(null);
    vector.catch(() => undefined); // awaited by the retrievers; this only marks it handled meanwhile
    const depth = Math.max(50, input.maxResults * 5);
    const restrictive = input.ids !== null || Object.keys(filters.metadata).length > 0 || Object.keys(filters.additional).length > 0 || principals !== null;
    const chunks = this.chunks;
    // The extras obey the same ACL and query_apps rule as the results (not the metadata filters:
    // they are what the results point at).
    const extras: ExtrasScope = { orgId: database.org_id, databaseId: database.id, collections, principals, excludeConnectorItems: !input.queryApps };
    // The graph context's query part starts now, while the results are retrieved.
    const graphParts = input.graphContext
      ? new Map(corpora.map((corpus) => [corpus, this.graph.beginGraphContext({ ...extras, corpus, queryText: input.query, mode: input.mode })]))
      : null;

    // Thinking mode asks a configured chat model for words to look for beside the question's,
    // while the first retrieval runs; they rank chunks in a list of their own (a second pass).
    const suggested =
      input.mode === "thinking" && input.queryBy === "hybrid"
        ? this.models.expand(input.query).then((words) => {
            const own = new Set(terms);
            return [...new Set(queryTerms(words.join(" ")))].filter((t) => !own.has(t));
          })
        : Promise.resolve([]);
    const perCorpus = await Promise.all(
      corpora.map(async (corpus) => {
        const base = {
          orgId: database.org_id,
          databaseId: database.id,
          corpus,
          collections,
          text: input.query,
          terms,
          queryBy: input.queryBy,
          operator: input.operator,
          alpha,
          depth,
          visible: visibleFor(corpus),
          restrictive,
          vector,
          ...(corpus === "memory" ? { episodeSeeds: EPISODE_SEEDS } : {}),
        };
        const first = await this.retriever.retrieve(base);
        let fused = first.fused;
        // pseudo-relevance feedback: on conversation memories the top turns' shared words are
        // chit-chat and measured no gain on LoCoMo, so it expands knowledge queries only
        let expansion: string[] = [];
        if (input.mode === "thinking" && input.queryBy === "hybrid" && corpus === "knowledge" && fused.length > 0) {
          const top = await hydrate(
            chunks,
            fused.slice(0, 5).map((f) => f.chunkKey),
            base.visible,
          );
          expansion = feedbackTerms(
            terms,
            [...top.values()].map((h) => this.retriever.termsOf(h.chunk)),
          );
        }
        const modelTerms = await suggested;
        if (expansion.length > 0 || modelTerms.length > 0)
          fused = interpolate(fused, (await this.retriever.retrieve({ ...base, expansion, modelTerms }, first.lists)).fused, SECOND_PASS_WEIGHT);
        for (let hop = 0; hop < NEIGHBOUR_HOPS[input.mode][corpus] && input.queryBy === "hybrid" && fused.length > 0; hop++) {
          const neighbours = await neighbourChunks(
            chunks,
            tenancyOf(database),
            fused.slice(0, NEIGHBOUR_SEEDS).map((f) => f.chunkKey),
          );
          fused = spreadToNeighbours(fused, neighbours, NEIGHBOUR_WEIGHT[input.mode][corpus]);
        }
        return { corpus, fused };
      }),
    );
    const merged: Fused[] = perCorpus.flatMap((p) => p.fused).sort((a, b) => b.score - a.score);
    // A reranker sees its whole depth of candidates, however few results are asked for.
    const candidates = merged.slice(0, Math.max(input.maxResults * 3, input.mode === "thinking" ? this.models.rerankDepth : 0));
    const hydrated = await hydrateAll(chunks, candidates, corpora, visibleFor);
    const words = queryWords(input.query);
    let scored: Scored[] = candidates.flatMap((c) => {
      const h = hydrated.get(c.chunkKey);
      return h
        ? [{ h, score: this.withRecency(c.score * (input.queryBy === "hybrid" ? speakerBoost(h, words) * titleBoost(h, words) : 1), h, input.recencyBias) }]
        : [];
    });
    scored.sort((a, b) => b.score - a.score);
    if (input.mode === "thinking") scored = await this.reranked(input.query, scored);
    if (input.mode === "thinking")
      scored = spreadGroups(
        diversify(
          scored,
          (s) => s.score,
          (s) => this.retriever.termsOf(s.h.chunk),
          undefined,
          input.maxResults,
        ),
        (s) => s.h.item.id,
        THINKING_PER_ITEM,
      );
    const top = await completed(chunks, tenancyOf(database), scored.slice(0, input.maxResults));
    const max = top[0]?.score ?? 1;

    const result: QueryResult = {
      success: true,
      message: top.length > 0 ? `${top.length} chunk(s) found` : "no matching context",
      chunks: top.map((s) => chunkView(s.h, max > 0 ? s.score / max : 0)),
      sources: dedupeSources(top.map((s) => s.h)),
      additional_context: {},
    };
    if (input.mode === "thinking") {
      if (input.forceful) result.additional_context = await this.forcefullyRelated(top, extras);
      Object.assign(result.additional_context, await this.graphConnected(top, extras, result.additional_context));
    }
    if (graphParts !== null) result.graph_context = await this.graphContext(graphParts, top);
    this.queryLog.record({ orgId: input.orgId, requestId: input.requestId, database: input.database, collection: collections.join(",") });
    return result;
  }

  /** Thinking mode's first candidates reordered with a configured model's relevance scores. */
  private async reranked(question: string, scored: Scored[]): Promise<Scored[]> {
    const head = scored.slice(0, this.models.rerankDepth);
    if (head.length < 2) return scored;
    const scores = await this.models.rerank(
      question,
      head.map((s) => s.h.chunk.content),
    );
    return scores === null ? scored : withModelScores(scored, scores);
  }

  private withRecency(score: number, h: Candidate, bias: number): number {
    if (bias <= 0) return score;
    const ageDays = Math.max(0, (this.now() - (h.item.item_timestamp ?? h.item.created_at)) / DAY_MS);
    return score * (1 - bias) + bias * Math.exp(-ageDays / 30) * score;
  }

  /** The visible items of `corpus` among `sourceIds` (ACL, expiry, query_apps), as internal and public ids. */
  private async visibleSources(scope: ExtrasScope, corpus: Corpus, sourceIds: readonly string[]): Promise<Array<{ id: string; source_id: string }>> {
    return this.chunks.visibleSources({
      orgId: scope.orgId,
      databaseId: scope.databaseId,
      collection: scope.collections[0]!,
      collections: scope.collections,
      corpora: [corpus],
      ids: sourceIds,
      metadata: {},
      additional: {},
      sourceFields: {},
      principals: scope.principals,
      now: this.now(),
      excludeConnectorItems: scope.excludeConnectorItems,
    });
  }

  private get chunks(): ChunkStore {
    return new ChunkStore(this.store.reader, this.store.backend);
  }

  /** Chunks of items named in the results' `relations.ids`, never crossing knowledge and memory. */
  private async forcefullyRelated(top: readonly Shown[], scope: ExtrasScope): Promise<Record<string, Record<string, unknown>>> {
    const present = new Set(top.map((s) => s.h.item.id));
    const wanted = new Map<string, Set<string>>();
    for (const s of top) {
      const ids = (JSON.parse(s.h.item.relations) as { ids?: string[] }).ids ?? [];
      for (const id of ids) {
        const set = wanted.get(s.h.item.corpus) ?? new Set<string>();
        set.add(id);
        wanted.set(s.h.item.corpus, set);
      }
    }
    const out: Record<string, Record<string, unknown>> = {};
    for (const [corpus, ids] of wanted) {
      const rows = await this.visibleSources(scope, corpus as Corpus, [...ids]);
      const itemIds = rows.map((r) => r.id).filter((id) => !present.has(id));
      for (const h of await chunksOfItems(this.chunks, scope, itemIds, 3)) out[h.chunk.chunk_uuid] = chunkView(h, 0);
    }
    return out;
  }

  /** Thinking mode walks the item graph (threads, hierarchies, declared links) from the results. */
  private async graphConnected(
    top: readonly Shown[],
    scope: ExtrasScope,
    already: Record<string, Record<string, unknown>>,
  ): Promise<Record<string, Record<string, unknown>>> {
    const out: Record<string, Record<string, unknown>> = {};
    const present = new Set([...top.map((s) => s.h.item.id), ...Object.values(already).map((c) => String(c.id))]);
    for (const corpus of new Set(top.map((s) => s.h.item.corpus))) {
      const sourceIds = top.filter((s) => s.h.item.corpus === corpus).map((s) => s.h.item.source_id);
      const related = await this.graph.relatedItems({ ...scope, corpus, sourceIds, limit: 5 });
      if (related.length === 0) continue;
      const rows = await this.visibleSources(scope, corpus, related);
      const itemIds = rows.filter((r) => !present.has(r.id) && !present.has(r.source_id)).map((r) => r.id);
      for (const h of await chunksOfItems(this.chunks, scope, itemIds, 1)) out[h.chunk.chunk_uuid] = chunkView(h, 0);
    }
    return out;
  }

  private async graphContext(
    parts: ReadonlyMap<Corpus, (chunks: readonly RetrievedChunkRef[]) => Promise<GraphContext>>,
    top: readonly Shown[],
  ): Promise<GraphContext> {
    const byCorpus = new Map<Corpus, Shown[]>();
    for (const s of top) byCorpus.set(s.h.item.corpus, [...(byCorpus.get(s.h.item.corpus) ?? []), s]);
    const context = emptyGraphContext();
    for (const [corpus, list] of byCorpus) {
      const finish = parts.get(corpus);
      if (finish === undefined) continue;
      const part = await finish(
        list.map((s) => ({
          chunk_uuid: s.h.chunk.chunk_uuid,
          item_id: s.h.item.id,
          source_id: s.h.item.source_id,
          collection: s.h.item.collection,
          content: s.h.chunk.content,
        })),
      );
      context.query_paths.push(...part.query_paths);
      context.chunk_relations.push(...part.chunk_relations);
      Object.assign(context.chunk_id_to_group_ids, part.chunk_id_to_group_ids);
    }
    return context;
  }
}

async function hydrateAll(
  store: ChunkStore,
  candidates: readonly Fused[],
  corpora: readonly Corpus[],
  visibleFor: (c: Corpus) => Visibility,
): Promise<Map<number, Candidate>> {
  const out = new Map<number, Candidate>();
  for (const corpus of corpora) {
    for (const [k, v] of await hydrate(
      store,
      candidates.map((c) => c.chunkKey),
      visibleFor(corpus),
    ))
      out.set(k, v);
  }
  return out;
}

function dedupeSources(hits: readonly Hydrated[]): Array<Record<string, unknown>> {
  const seen = new Set<string>();
  const out: Array<Record<string, unknown>> = [];
  for (const h of hits) {
    if (seen.has(h.item.id)) continue;
    seen.add(h.item.id);
    out.push(sourceView(h));
  }
  return out;
}
