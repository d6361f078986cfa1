import type { Connectors } from "./features/connectors/index.js";
import type { GraphBuilder } from "./features/context-graph/graph-builder.js";
import type { GraphContextProvider } from "./features/context-graph/index.js";
import type { SubgraphService } from "./features/context-graph/subgraph-service.js";
import type { DatabaseService } from "./features/databases/service.js";
import type { QueryLog } from "./features/feedback/query-log.js";
import type { GraphAreaService } from "./features/graph-collections/service.js";
import type { IngestPipeline } from "./features/ingestion/pipeline.js";
import type { ContextMaintenance } from "./features/items/maintenance.js";
import type { OrgService } from "./features/organizations/service.js";
import type { TermScope } from "./features/search/term-indexes.js";
import type { VectorStore } from "./features/search/vector-store.js";
import type { WebhookOutbox } from "./features/webhooks/index.js";
import type { Config } from "./platform/config.js";
import type { App } from "./platform/http/app-type.js";
import type { JobQueue } from "./platform/jobs/queue.js";
import type { WorkerPool } from "./platform/jobs/worker-pool.js";
import type { ShutdownOutcome } from "./platform/shutdown.js";
import type { Store } from "./platform/store/db.js";
import type { SharedEmbedder } from "./engines/embeddings/shared-embedder.js";
import { buildContextFeatures, type ContextFeatures } from "./app/context-features.js";
import { buildFeatures, type Features } from "./app/features.js";
import { closer, startWarmUp } from "./app/lifecycle.js";
import { buildPlatform, closePlatform, type ApplicationOptions, type Platform } from "./app/platform.js";
import { buildServer } from "./app/routes.js";
import { buildWorker } from "./app/worker.js";
import type { Secrets } from "./platform/secrets/secrets.js";

export interface Application {
  readonly config: Config;
  readonly server: App;
  readonly store: Store;
  readonly orgs: OrgService;
  readonly databases: DatabaseService;
  readonly graphArea: GraphAreaService;
  readonly queue: JobQueue;
  readonly worker: WorkerPool;
  readonly pipeline: IngestPipeline;
  /** Builds and removes the context graph of items; its stats feed the benchmark. */
  readonly graphBuilder: GraphBuilder;
  readonly subgraphs: SubgraphService;
  /** Graph context and connected items for POST /query. */
  readonly graphContext: GraphContextProvider;
  readonly maintenance: ContextMaintenance;
  readonly vectors: VectorStore;
  /** The process's embedder (started at warm-up on a store with content). */
  readonly embedder: SharedEmbedder;
  /** Ingestion records indexing status changes here, in the transaction that writes them. */
  readonly outbox: WebhookOutbox;
  /** POST /query records each answered query here, so feedback can refer to it. */
  readonly queryLog: QueryLog;
  /** The search indexes loading in the background at start (WARM_UP_INDEXES); resolves to the scopes loaded. */
  readonly indexesWarm: Promise<TermScope[]>;
  /** The same, once the embedder and the extraction workers have started as well (a process joining a serving cluster waits for it). */
  readonly warm: Promise<TermScope[]>;
  /** Connector records, sync control (scheduler pass) and the sync engine. */
  readonly connectors: Connectors;
  /** Secrets at rest, sealed under the master key (the CLI's import seals with the same boxes). */
  readonly secrets: Secrets;
  /**
   * Stops accepting, finishes in-flight requests, releases claimed jobs, writes the query log and
   * vector indexes, closes the embedder and the store: all of it within SHUTDOWN_TIMEOUT_MS;
   * what is left when the budget is spent is abandoned (logged), and close resolves.
   */
  close(): Promise<ShutdownOutcome>;
}

/**
 * The composition root: configuration -> platform (logger, store, queue, embedder) -> context
 * features -> the features built on them -> job handlers and workers -> routes. Every object
 * gets its collaborators when it is built; nothing is attached afterwards.
 */
export async function createApplication(config: Config, options: ApplicationOptions = {}): Promise<Application> {
  const platform = await buildPlatform(config, options);
  const { context, features, worker, server } = await buildOnPlatform(config, platform);
  const warmUp = startWarmUp(config, platform, context, features);
  return {
    config,
    server,
    store: platform.store,
    orgs: features.orgs,
    databases: context.databases,
    graphArea: features.graphArea,
    queue: platform.queue,
    worker,
    pipeline: context.pipeline,
    graphBuilder: context.graphBuilder,
    subgraphs: features.subgraphs,
    graphContext: features.graphContext,
    maintenance: context.maintenance,
    vectors: context.vectors,
    embedder: platform.embedder,
    outbox: context.webhooks.outbox,
    queryLog: features.queryLog,
    indexesWarm: warmUp.indexesWarm,
    warm: warmUp.warm,
    connectors: features.connectors,
    secrets: platform.secrets,
    close: closer(config, { platform, context, features, worker, server, warmUp }),
  };
}

/** The features, workers and routes on a built platform; a failure closes what the start opened. */
async function buildOnPlatform(config: Config, platform: Platform): Promise<{ context: ContextFeatures; features: Features; worker: WorkerPool; server: App }> {
  let features: Features | undefined;
  try {
    const context = buildContextFeatures(config, platform);
    features = await buildFeatures(config, platform, context);
    const worker = buildWorker(config, platform, context, features);
    return { context, features, worker, server: await buildServer(config, platform, context, features, worker) };
  } catch (err) {
    // A failed start (a reranker folder without its model, say) closes the reranker, the
    // platform's threads and the store before it reports, so no part of it outlives the failure.
    await features?.reranker?.close().catch(() => undefined);
    await closePlatform(platform);
    throw err;
  }
}
