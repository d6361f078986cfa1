import { join } from "node:path";
import { chatModelConfig, createLlmRelationExtractor, type LlmRelationExtractor } from "../engines/extraction/index.js";
import { GraphBuilder } from "../features/context-graph/graph-builder.js";
import { DatabaseService } from "../features/databases/service.js";
import { graphCollectionLister } from "../features/graph-collections/service.js";
import { ChunkBuilder } from "../features/ingestion/build-chunks.js";
import { pipelineJobs } from "../features/ingestion/jobs.js";
import { graphStage, IngestPipeline } from "../features/ingestion/pipeline.js";
import { IngestService } from "../features/ingestion/service.js";
import { ByteBudget } from "../platform/util/byte-budget.js";
import { createBlobStore, type BlobStore } from "../features/items/blob-store.js";
import { ContextEditService } from "../features/items/edit-service.js";
import { ContextMaintenance } from "../features/items/maintenance.js";
import { VectorStore } from "../features/search/vector-store.js";
import { createWebhooks, type Webhooks } from "../features/webhooks/index.js";
import type { Config } from "../platform/config.js";
import { afterCommit } from "../platform/store/after-commit.js";
import type { Metrics } from "../platform/metrics/metrics.js";
import type { StatusListener } from "../features/ingestion/status-events.js";
import type { Platform } from "./platform.js";

/** Databases and the life of their items: ingestion, the pipeline (graph, webhooks), edits and upkeep. */
export interface ContextFeatures {
  readonly databases: DatabaseService;
  readonly blobs: BlobStore;
  readonly vectors: VectorStore;
  readonly graphBuilder: GraphBuilder;
  readonly webhooks: Webhooks;
  readonly pipeline: IngestPipeline;
  readonly ingest: IngestService;
  readonly maintenance: ContextMaintenance;
  readonly edit: ContextEditService;
}

export const archiveLimitsOf = (config: Config): { maxUncompressedBytes: number; maxCompressionRatio: number } => ({
  maxUncompressedBytes: config.maxArchiveUncompressedBytes,
  maxCompressionRatio: config.maxArchiveCompressionRatio,
});

function relationExtractorOf(config: Config): LlmRelationExtractor | null {
  const chat = config.chatModel;
  return chat ? createLlmRelationExtractor(chatModelConfig(chat)) : null;
}

/** Counts items reaching searchable, completed or errored (and their chunks) once their status change is committed. */
function indexingMetrics(metrics: Metrics): StatusListener {
  return async (tx, change) => {
    const outcome = change.indexingStatus === "graph_creation" ? "searchable" : change.indexingStatus;
    if (outcome !== "searchable" && outcome !== "completed" && outcome !== "errored") return;
    afterCommit(tx, () => metrics.itemIndexed(outcome, change.chunkCount));
  };
}

/** Each object gets its collaborators when built; the graph builder and the webhook outbox come before the pipeline. */
export function buildContextFeatures(
  config: Config,
  { store, secrets, queue, embedder, extraction, parsers, terms, logger, metrics, background, now }: Platform,
): ContextFeatures {
  const databases = new DatabaseService(store, queue, { maxDatabasesPerOrg: config.maxDatabasesPerOrg }, [graphCollectionLister(store)]);
  const blobs = createBlobStore(store, config.dataDir, logger);
  const vectors = new VectorStore(store, join(config.dataDir, "indexes"));
  const chunking = { maxTokens: config.chunkMaxTokens, overlapTokens: config.chunkOverlapTokens };
  const chunker = new ChunkBuilder(blobs, chunking, config.chatModel, {
    archive: archiveLimitsOf(config),
    timeoutMs: config.parseTimeoutMs,
    isolate: parsers,
  });
  const graphBuilder = new GraphBuilder(store, relationExtractorOf(config), extraction);
  const webhooks = createWebhooks(config, store, queue, secrets.webhooks, (outcome) => metrics.webhookDelivery(outcome));
  const pipeline = new IngestPipeline(store, chunker, embedder, vectors, pipelineJobs(queue), {
    graph: [graphStage(graphBuilder)],
    // Terminal indexing outcomes become webhook deliveries in the same transaction (outbox).
    statusListeners: [
      async (tx, change) => {
        await webhooks.outbox.recordStatusChange(tx, change);
      },
      indexingMetrics(metrics),
    ],
    turn: background.turn,
    memory: new ByteBudget(config.ingestMemoryBytes),
    terms,
  });
  // Reconcile ends lost items errored through the pipeline, so status listeners hear of it.
  const endWithError = pipeline.endWithError.bind(pipeline);
  return {
    databases,
    blobs,
    vectors,
    graphBuilder,
    webhooks,
    pipeline,
    ingest: new IngestService(store, queue, databases, blobs, vectors, now),
    maintenance: new ContextMaintenance(store, blobs, vectors, endWithError, [graphBuilder.remove], config.reconcileStaleAfterMs, now),
    edit: new ContextEditService(store, databases, blobs, vectors, [graphBuilder.remove], now),
  };
}
