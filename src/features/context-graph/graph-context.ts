import type { ExtractionPool, GraphEntity } from "../../engines/extraction/index.js";
import type { Executor, Store } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";
import type { GraphScope } from "./graph-write-store.js";
import type { TraversalScope } from "./traversal-store.js";
import { entitiesInQuery } from "./query-entities.js";
import { traverse } from "./traverse.js";
import { entitiesMentionedIn, readTriplets, tripletsOfFoundChunks, type StoredTriplet } from "./graph-read-store.js";
import type { WireRelation } from "./wire.js";

/** SDK `PathTriplet`: one relation of a path. */
export interface PathTriplet {
  source: GraphEntity;
  relation: WireRelation;
  target: GraphEntity;
}

/** SDK `ScoredPathResponse`. */
export interface ScoredPath {
  triplets: PathTriplet[];
  relevancy_score: number;
  combined_context: string | null;
  group_id: string;
  source_chunk_ids: string[];
}

/** SDK `GraphContext` (without `synthesis_context`, which needs a model). */
export interface GraphContext {
  query_paths: ScoredPath[];
  chunk_relations: ScoredPath[];
  chunk_id_to_group_ids: Record<string, string[]>;
}

export interface RetrievedChunk {
  readonly chunk_uuid: string;
  /** Internal item id (context_items.id). */
  readonly item_id: string;
  readonly source_id: string;
  /** The collection of its item: the graph its relations are in. */
  readonly collection: string;
  readonly content: string;
}

/** A POST /query's graph context: one database of the organization (the query's tenancy), over one or more collections. */
export interface GraphContextRequest extends Pick<DatabaseTenancy, "orgId" | "databaseId"> {
  readonly corpus: Corpus;
  /** Collections the query ran over; paths never cross between them. */
  readonly collections: readonly string[];
  readonly queryText: string;
  readonly chunks: readonly RetrievedChunk[];
  /** Expanded principals (see context/acl.ts), or null for no ACL scoping. */
  readonly principals: readonly string[] | null;
  readonly mode: "fast" | "thinking";
  /** Leave out items written by connectors (POST /query without query_apps). */
  readonly excludeConnectorItems?: boolean;
}

/** Items connected to an answer, in one graph: the tenancy (organization, database, collection) and corpus. */
export interface RelatedItemsRequest extends GraphScope {
  /** Public ids of the items the answer already holds. */
  readonly sourceIds: readonly string[];
  readonly principals: readonly string[] | null;
  /** 1 or 2 hops (default 2). */
  readonly maxHops?: number;
  /** Connected items returned at most (default 20). */
  readonly limit?: number;
  /** Leave out items written by connectors (POST /query without query_apps). */
  readonly excludeConnectorItems?: boolean;
}

export interface RelatedItem {
  item_id: string;
  source_id: string;
  title: string;
  depth: number;
  /** Source id of the item it was reached from. */
  via: string;
  /** `same_thread`, `parent`, `child` or the declared relation type. */
  relation: string;
}

const LIMITS = { fast: { paths: 10, perEntity: 40, neighbors: 0 }, thinking: { paths: 20, perEntity: 80, neighbors: 3 } } as const;

type Limits = (typeof LIMITS)[keyof typeof LIMITS];

/** A candidate query path (one or two triplets) and its score, before the cut to `paths`. */
interface CandidatePath {
  readonly path: StoredTriplet[];
  readonly score: number;
}

/** One collection's part of the query: the entities it names, and in thinking mode their paths. */
interface QueryPart {
  readonly named: readonly string[];
  readonly paths: CandidatePath[] | null;
}

const best = (t: StoredTriplet): number => Math.max(...t.relations.map((r) => r.confidence));
/** A path joining two named entities says more than one that merely touches one. */
const bonus = (named: ReadonlySet<string>, t: StoredTriplet): number => (named.has(t.source.entity_id) && named.has(t.target.entity_id) ? 1 : 0.5);

const round = (n: number): number => Math.round(n * 1000) / 1000;

function pathOf(triplets: readonly StoredTriplet[], groupId: string, chunkIds: readonly string[]): ScoredPath {
  const steps = triplets.flatMap((t) => t.relations.map((relation) => ({ source: t.source, relation, target: t.target })));
  const contexts = [...new Set(steps.map((s) => s.relation.context).filter((c) => c.length > 0))];
  const score = steps.length === 0 ? 0 : steps.reduce((p, s) => p * (s.relation.confidence || 0.01), 1) ** (1 / steps.length);
  return {
    triplets: steps,
    relevancy_score: round(score),
    combined_context: contexts.length > 0 ? contexts.join(" ") : null,
    group_id: groupId,
    source_chunk_ids: [...new Set(chunkIds)],
  };
}

/**
 * Graph context for POST /query, and the connected items thinking mode brings in. Reads only:
 * every triplet comes from an item the caller may see (the same ACL rule as list and subgraph).
 */
export class GraphContextProvider {
  constructor(
    private readonly store: Store,
    private readonly extraction: ExtractionPool,
    private readonly now: () => number = Date.now,
  ) {}

  private scopeOf(graph: GraphScope, principals: readonly string[] | null, excludeConnectorItems = false): TraversalScope {
    const { orgId, databaseId, corpus, collection } = graph;
    return { backend: this.store.backend, orgId, databaseId, corpus, collection, principals, now: this.now(), excludeConnectorItems };
  }

  /**
   * `query_paths`: relations touching the entities the query names (in thinking mode extended
   * by one hop), best first. `chunk_relations`: per retrieved chunk, the relations read from it
   * (thinking mode adds relations elsewhere of the entities it mentions).
   * `chunk_id_to_group_ids`: chunk_uuid -> group ids of the paths it produced.
   */
  async graphContextFor(req: GraphContextRequest): Promise<GraphContext> {
    return this.begin(req)(req.chunks);
  }

  /**
   * Starts the query's part at once (its entities, and the paths touching them: they need only the
   * query text), so it runs while the results are still being retrieved (the query embedding is
   * computed in another thread meanwhile); the function returned adds the retrieved chunks' part.
   */
  begin(req: Omit<GraphContextRequest, "chunks">): (chunks: readonly RetrievedChunk[]) => Promise<GraphContext> {
    const limits = LIMITS[req.mode];
    // Plain reads, not a snapshot: on SQLite a snapshot holds the process's one reader connection
    // until it ends, so every other read of the process waited for the graph context (50-140 ms
    // under bench:load). The context is advisory: a write landing between two reads is harmless.
    const db = this.store.reader;
    const scopes = req.collections.map((collection) =>
      this.scopeOf({ orgId: req.orgId, databaseId: req.databaseId, corpus: req.corpus, collection }, req.principals, req.excludeConnectorItems),
    );
    const queryPart = (async () => {
      const [mentions] = await this.extraction.extract([req.queryText], { mode: "query" }, { urgent: true });
      if (mentions === undefined) throw new Error("entity extraction returned no result for the query");
      const parts: QueryPart[] = [];
      for (const s of scopes) {
        const named = await entitiesInQuery(db, s, req.queryText, mentions);
        // Thinking mode reads the named entities' paths (one and two hops) now, beside the retrieval.
        parts.push({ named, paths: limits.neighbors > 0 && named.length > 0 ? await this.namedPaths(db, s, named, limits) : null });
      }
      return parts;
    })();
    queryPart.catch(() => undefined); // awaited below; this only marks it handled meanwhile
    return async (chunks) => {
      const chunkPaths: ScoredPath[] = [];
      const fromChunksOf: StoredTriplet[][] = [];
      for (const s of scopes) {
        const mine = chunks.filter((c) => c.collection === s.collection);
        const fromChunks = await tripletsOfFoundChunks(
          db,
          s,
          mine.map((c) => c.chunk_uuid),
          50 * Math.max(1, mine.length),
        );
        fromChunksOf.push(fromChunks);
        for (const chunk of mine) {
          const own = fromChunks.filter((t) => t.chunk_id === chunk.chunk_uuid);
          const around = limits.neighbors > 0 ? await this.aroundChunk(db, s, chunk.chunk_uuid, limits.neighbors) : [];
          if (own.length + around.length > 0) chunkPaths.push(pathOf([...own, ...around], "", [chunk.chunk_uuid]));
        }
      }
      const query: CandidatePath[] = [];
      for (const [i, part] of (await queryPart).entries()) {
        if (part.paths !== null) query.push(...part.paths);
        else if (part.named.length > 0) query.push(...(await this.fastPaths(db, scopes[i]!, part.named, fromChunksOf[i] ?? [], limits)));
      }
      query.sort((a, b) => b.score - a.score);
      const queryPaths = query.slice(0, limits.paths).map((p, i) =>
        pathOf(
          p.path,
          `q_${i}`,
          p.path.map((t) => t.chunk_id).filter((c) => c.length > 0),
        ),
      );
      const chunkRelations = chunkPaths.map((p, i) => ({ ...p, group_id: `p_${i}` }));
      const groups: Record<string, string[]> = {};
      const chunkSet = new Set(chunks.map((c) => c.chunk_uuid));
      for (const p of [...chunkRelations, ...queryPaths]) {
        for (const id of p.source_chunk_ids) if (chunkSet.has(id)) (groups[id] ??= []).push(p.group_id);
      }
      return { query_paths: queryPaths, chunk_relations: chunkRelations, chunk_id_to_group_ids: groups };
    };
  }

  /**
   * Fast mode's query paths: the relations of the retrieved chunks that touch a named entity (read
   * already for `chunk_relations`), so the paths are those of the evidence the query found. Only
   * when no retrieved chunk has one are the named entities' own relations read (the first in key
   * order). Filling up to `paths` with those whenever the results gave fewer added noise: on LoCoMo
   * such paths came from an evidence turn of the question 0.3% of the time against 8.1% for the
   * results' own, and the read ran in 73% of the questions instead of 9%.
   */
  private async fastPaths(
    db: Executor,
    s: TraversalScope,
    named: readonly string[],
    fromChunks: readonly StoredTriplet[],
    limits: Limits,
  ): Promise<CandidatePath[]> {
    const namedSet = new Set(named);
    const touching = fromChunks.filter((t) => namedSet.has(t.source.entity_id) || namedSet.has(t.target.entity_id));
    const paths = touching.length > 0 ? touching : await readTriplets(db, s, { entityIds: named }, 0, limits.perEntity * named.length);
    return paths.map((t) => ({ path: [t], score: best(t) * bonus(namedSet, t) }));
  }

  /** Thinking mode's query paths: the named entities' relations, and the paths of two that continue them. */
  private async namedPaths(db: Executor, s: TraversalScope, named: readonly string[], limits: Limits): Promise<CandidatePath[]> {
    const namedSet = new Set(named);
    const first = await readTriplets(db, s, { entityIds: named }, 0, limits.perEntity * named.length);
    const out = first.map((t) => ({ path: [t], score: best(t) * bonus(namedSet, t) }));
    const ends = [...new Set(first.flatMap((t) => [t.source.entity_id, t.target.entity_id]).filter((id) => !namedSet.has(id)))].slice(0, 50);
    const second = await readTriplets(db, s, { entityIds: ends }, 0, limits.perEntity * Math.max(1, ends.length));
    for (const t1 of first) {
      const end = namedSet.has(t1.target.entity_id) ? t1.source.entity_id : t1.target.entity_id;
      for (const t2 of second) {
        if (t2.key === t1.key || (t2.source.entity_id !== end && t2.target.entity_id !== end)) continue;
        out.push({ path: [t1, t2], score: best(t1) * best(t2) * (namedSet.has(t2.source.entity_id) || namedSet.has(t2.target.entity_id) ? 1 : 0.5) });
      }
    }
    return out;
  }

  /** Relations elsewhere of the entities a chunk mentions, most confident first. */
  private async aroundChunk(db: Executor, s: TraversalScope, chunkId: string, limit: number): Promise<StoredTriplet[]> {
    const mentioned = await entitiesMentionedIn(db, s, chunkId);
    if (mentioned.length === 0) return [];
    const found = await readTriplets(db, s, { entityIds: mentioned, kind: "chunk" }, 0, 200);
    return found
      .filter((t) => t.chunk_id !== chunkId)
      .sort((a, b) => best(b) - best(a))
      .slice(0, limit);
  }

  /** Items connected to `sourceIds` within 1-2 hops (links, hierarchy, threads), nearest first. */
  async relatedItems(req: RelatedItemsRequest): Promise<RelatedItem[]> {
    const limit = req.limit ?? 20;
    const s = this.scopeOf(req, req.principals, req.excludeConnectorItems);
    // Plain reads, as for the graph context above: a snapshot would hold SQLite's reader connection.
    const walk = await traverse(this.store.reader, s, req.sourceIds, Math.min(2, Math.max(1, req.maxHops ?? 2)), req.sourceIds.length + limit);
    return walk.members
      .filter((m) => m.depth > 0)
      .slice(0, limit)
      .map((m) => ({ item_id: m.item.id, source_id: m.item.source_id, title: m.item.title, depth: m.depth, via: m.via ?? "", relation: m.relation ?? "" }));
  }
}
