import { performance } from "node:perf_hooks";
import { createEntityResolver, scopeKey, type ExtractionPool, type LlmRelationExtractor, type RelationTriplet } from "../../engines/extraction/index.js";
import type { ItemRow } from "../items/store.js";
import type { PurgedItem } from "../items/maintenance.js";
import type { Executor, Store } from "../../platform/store/db.js";
import { LoadedAliasTable } from "./alias-store.js";
import { speakerOf } from "./app-structure.js";
import { buildItemGraph, identityHints, readChunkMentions, type ChunkMentions, type ExtractTexts } from "./extract-item-graph.js";
import {
  aliasScopeKey,
  applyMerges,
  chunkTextsOf,
  collectGarbage,
  graphScopeOf,
  removeItemGraph,
  resolutionScopeOf,
  resolveExternalLinks,
  writeItemGraph,
} from "./graph-write-store.js";
import { appItemOf, itemLinksOf } from "./item-links.js";
import { mergeInGraph, modelRelations, remapModelTriplets } from "./model-relations.js";

/** Time spent building graphs, for the benchmark's share-of-ingestion figure. */
export interface GraphBuildStats {
  items: number;
  totalMs: number;
}

/** What `prepare` computed outside the transaction, for `write`. */
export interface PreparedGraph {
  readonly chunks: ChunkMentions[];
  readonly fromModel: Map<string, RelationTriplet[]> | undefined;
  readonly ms: number;
}

/**
 * Builds an item's graph in `graph_creation` and removes it on delete. A rebuild (upsert,
 * retry) first removes what the item contributed, so the graph always holds exactly the
 * current version of every item; entities nothing refers to any more are collected.
 */
export class GraphBuilder {
  readonly stats: GraphBuildStats = { items: 0, totalMs: 0 };

  constructor(
    private readonly store: Store,
    private readonly llm: LlmRelationExtractor | null,
    private readonly extraction: ExtractionPool,
  ) {}

  /** Loads the extractors' lexicons now rather than on the first item (benchmarks, eager nodes). */
  async warmUp(): Promise<void> {
    await readChunkMentions(
      { item_timestamp: 0, created_at: 0 },
      null,
      [{ chunkId: "warm-up", content: "Ada Lovelace works at Acme Corp in London since May 2024." }],
      this.extract,
    );
  }

  /** The chunks' entity extraction, in the pool's workers. */
  private readonly extract: ExtractTexts = (texts, context) => this.extraction.extract(texts, context);

  /**
   * The pipeline's preparer, outside the transaction: reads the chunks' mentions (the CPU-heavy
   * NLP) and asks the chat model, when one is configured, so the write lock is held only for writes.
   */
  readonly prepare = async (item: ItemRow, chunkKeys: readonly number[]): Promise<PreparedGraph> => {
    const started = performance.now();
    const texts = await chunkTextsOf(this.store.db, item, chunkKeys);
    const app = appItemOf(item);
    const chunks = await readChunkMentions(item, app, texts, this.extract);
    const fromModel = this.llm === null ? undefined : await modelRelations(this.llm, item, app, chunks);
    return { chunks, fromModel, ms: performance.now() - started };
  };

  /** Writes the prepared graph, inside the transaction that marks the item completed. */
  readonly write = async (tx: Executor, item: ItemRow, _chunkKeys: readonly number[], prepared: PreparedGraph): Promise<void> => {
    const started = performance.now();
    const app = appItemOf(item);
    const scope = graphScopeOf(item);
    const { chunks, fromModel } = prepared;
    const candidates = await removeItemGraph(tx, item);
    const hints = identityHints(app, speakerOf(app, item.user_name), chunks);
    const aliases = await LoadedAliasTable.load(tx, scope, aliasScopeKey(scope), scopeKey(resolutionScopeOf(scope)), hints);
    const resolver = createEntityResolver(resolutionScopeOf(scope), aliases.table);
    const modelTriplets = fromModel === undefined ? undefined : remapModelTriplets(resolver, fromModel);
    const built = buildItemGraph({ item, app, chunks, resolver, ...(modelTriplets === undefined ? {} : { modelTriplets }) });
    const merges = resolver.takeMerges();
    await writeItemGraph(tx, item, mergeInGraph(built, merges), await resolveExternalLinks(tx, scope, itemLinksOf(item, app)));
    await applyMerges(tx, scope, merges);
    await aliases.flush(tx);
    await collectGarbage(tx, scope, candidates);
    this.stats.items += 1;
    this.stats.totalMs += performance.now() - started + prepared.ms;
  };

  /** The delete stage: the item's links, triplets and mentions go, then orphaned entities. */
  readonly remove = async (tx: Executor, item: PurgedItem): Promise<void> => {
    const candidates = await removeItemGraph(tx, item);
    await collectGarbage(tx, graphScopeOf(item), candidates);
  };
}
