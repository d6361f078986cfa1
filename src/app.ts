import { hostname } from "node:os";
import { join } from "node:path";
import { createBlobStore } from "./features/items/blob-store.js";
import { ChunkBuilder } from "./features/ingestion/build-chunks.js";
import { registerIngestRoutes } from "./features/ingestion/routes.js";
import { graphJobKey, IngestService } from "./features/ingestion/service.js";
import { ItemStore } from "./features/items/store.js";
import { ContextMaintenance } from "./features/items/maintenance.js";
import { registerEditRoutes } from "./features/items/edit-routes.js";
import { ContextEditService } from "./features/items/edit-service.js";
import { fileUrlSecret } from "./features/items/file-url-secret.js";
import { registerInspectRoutes } from "./features/items/inspect-routes.js";
import { InspectService } from "./features/items/inspect-service.js";
import { registerListRoutes } from "./features/items/list-routes.js";
import { ListService } from "./features/items/list-service.js";
import type { UploadLimits } from "./features/ingestion/multipart-upload.js";
import { IngestPipeline } from "./features/ingestion/pipeline.js";
import { registerStatusRoutes } from "./features/items/status-routes.js";
import { VectorStore } from "./features/search/vector-store.js";
import { SharedEmbedder } from "./engines/embeddings/shared-embedder.js";
import { Bm25Retriever } from "./features/search/bm25-retriever.js";
import { TermIndexes, type TermScope } from "./features/search/term-indexes.js";
import { warmUpIndexes } from "./features/search/warm-up.js";
import { CorpusRetriever } from "./features/search/corpus-retriever.js";
import { graphProviderOf } from "./features/search/graph-provider.js";
import { registerQueryRoutes } from "./features/search/routes.js";
import { registerLegacyV1Routes } from "./features/v1/routes.js";
import { QueryService } from "./features/search/service.js";
import type { Config } from "./platform/config.js";
import { registerLegacyTenantRoutes } from "./features/v1/databases-routes.js";
import { registerDatabaseRoutes } from "./features/databases/routes.js";
import { DatabaseService } from "./features/databases/service.js";
import { DatabaseReadiness } from "./features/databases/readiness.js";
import { DatabaseStats } from "./features/databases/stats.js";
import { DatabaseStore } from "./features/databases/store.js";
import { createLlmRelationExtractor } from "./engines/extraction/index.js";
import { GraphBuilder } from "./features/context-graph/graph-builder.js";
import { GraphContextProvider } from "./features/context-graph/index.js";
import { purgeDatabaseGraph } from "./features/context-graph/graph-writer.js";
import { RelationsService } from "./features/context-graph/relations-service.js";
import { registerGraphRoutes } from "./features/context-graph/routes.js";
import { SubgraphService } from "./features/context-graph/subgraph-service.js";
import { registerGraphAreaRoutes } from "./features/graph-collections/routes.js";
import { GraphAreaService } from "./features/graph-collections/service.js";
import type { App } from "./platform/http/app-type.js";
import { RateLimiter } from "./platform/http/rate-limit.js";
import { publicUrlOf } from "./platform/http/public-url.js";
import { createServer } from "./platform/http/server.js";
import { JobQueue } from "./platform/jobs/queue.js";
import type { JobHandlers } from "./platform/jobs/worker.js";
import { WorkerPool } from "./platform/jobs/worker-pool.js";
import { OrgService } from "./features/organizations/service.js";
import { openStore, type Store } from "./platform/store/db.js";
import { migrate } from "./platform/store/migrate.js";
import { inSystemScope } from "./platform/store/row-scope.js";
import { registerSystemRoutes } from "./features/system/routes.js";
import { shutdownWithin, type ShutdownOutcome } from "./platform/shutdown.js";
import { QueryLog } from "./features/feedback/query-log.js";
import { registerFeedbackRoutes } from "./features/feedback/routes.js";
import { FeedbackService } from "./features/feedback/service.js";
import { createWebhooks, type WebhookOutbox } from "./features/webhooks/index.js";
import { createConnectors, type Connectors } from "./features/connectors/index.js";
import { registerConnectorRoutes } from "./features/connectors/routes.js";
import { registerWebhookRoutes } from "./features/webhooks/routes.js";

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
  /** Ingestion records indexing status changes here, in the transaction that writes them. */
  readonly outbox: WebhookOutbox;
  /** POST /query records each answered query here, so feedback can refer to it. */
  readonly queryLog: QueryLog;
  /** The search indexes loading in the background at start (WARM_UP_INDEXES); resolves to the scopes loaded. */
  readonly indexesWarm: Promise<TermScope[]>;
  /** Connector records, sync control (scheduler pass) and the sync engine. */
  readonly connectors: Connectors;
  /**
   * Stops accepting, finishes in-flight requests, releases claimed jobs, writes the query log and
   * vector indexes, closes the embedder and the store: all of it within SHUTDOWN_TIMEOUT_MS;
   * what is left when the budget is spent is abandoned (logged), and close resolves.
   */
  close(): Promise<ShutdownOutcome>;
}

const COMPLETED_JOB_RETENTION_MS = 24 * 60 * 60_000;
const FEEDBACK_PER_MINUTE = 100;
/** Share of the shutdown budget left that running jobs may take to finish before they are released. */
const JOB_DRAIN_SHARE = 0.6;
const FINISHED_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** The composition root: configuration -> store -> services -> routes and workers. */
export async function createApplication(config: Config): Promise<Application> {
  const store = openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(store);
  const rowSecurity = await store.enforceRowSecurity();

  const orgs = new OrgService(store);
  await inSystemScope(() => orgs.bootstrap(config.bootstrapApiKeys));

  const queue = new JobQueue(store, Date.now, { "ingest.reconcile": config.reconcileIntervalMs });
  let worker: WorkerPool | null = null;
  const databases = new DatabaseService(store, queue, { maxDatabasesPerOrg: config.maxDatabasesPerOrg }, Date.now, () => worker?.wake());
  const embedder = new SharedEmbedder(config.embedding);
  const blobs = createBlobStore(store, config.dataDir);
  const vectors = new VectorStore(store, join(config.dataDir, "indexes"));
  const archiveLimits = { maxUncompressedBytes: config.maxArchiveUncompressedBytes, maxCompressionRatio: config.maxArchiveCompressionRatio };
  const chunker = new ChunkBuilder(blobs, { maxTokens: config.chunkMaxTokens, overlapTokens: config.chunkOverlapTokens }, config.chatModel, archiveLimits);
  const pipeline = new IngestPipeline(store, chunker, embedder, vectors, async (tx, items) => {
    const jobs = items.map((item) => ({ payload: { itemId: item.id, generation: item.generation }, dedupeKey: graphJobKey(item.id, item.generation) }));
    await queue.enqueueMany("ingest.graph", jobs, { executor: tx });
  });
  const chat = config.chatModel;
  const graphBuilder = new GraphBuilder(
    store,
    chat ? createLlmRelationExtractor({ baseUrl: chat.baseUrl, model: chat.model, ...(chat.apiKey ? { apiKey: chat.apiKey } : {}) }) : null,
  );
  pipeline.addGraphStage(graphBuilder);
  const ingest = new IngestService(store, queue, databases, blobs, vectors, () => worker?.wake());
  const maintenance = new ContextMaintenance(
    store,
    blobs,
    vectors,
    (id, generation, expected, error) => pipeline.endWithError(id, generation, expected, error),
    config.reconcileStaleAfterMs,
  );
  maintenance.addPurgeStage(graphBuilder.remove);
  databases.registerPurger(async (tx, database) => {
    await new ItemStore(tx).deleteDatabase(database.id);
    await blobs.deleteDatabase(tx, database.id);
    await vectors.dropDatabase(database.id);
    await purgeDatabaseGraph(tx, database.id);
  });

  const stats = new DatabaseStats(new DatabaseStore(store.db), () => (config.embedding.provider === "local" ? 512 : (config.embedding.dimensions ?? 0)));
  stats.register((database) => new ItemStore(store.db).countByCorpus(database.id));
  // Its logger is the server's, created below; it logs only after queries have been answered.
  const queryLog = new QueryLog(store, { warn: (obj, msg) => server.log.warn(obj, msg) });
  const feedback = new FeedbackService(store, databases, queryLog, { perMinute: FEEDBACK_PER_MINUTE });
  databases.registerPurger((tx, row) => feedback.purgeDatabase(tx, row.id));
  const webhooks = createWebhooks(config, store, queue, () => worker?.wake());
  // Terminal indexing outcomes become webhook deliveries in the same transaction (outbox).
  pipeline.onStatusChange(async (tx, change) => {
    await webhooks.outbox.recordStatusChange(tx, change);
  });
  const graphArea = new GraphAreaService(store, databases, {
    maxRows: config.graphMaxRows,
    timeoutMs: config.graphQueryTimeoutMs,
    maxListLength: config.graphMaxListLength,
    maxStringLength: config.graphMaxStringLength,
    workers: config.graphWorkers,
    workerMemoryMb: config.graphWorkerMemoryMb,
    maxConcurrentPerOrg: config.graphMaxConcurrentPerOrg,
    onWorkerCrash: (err) => server.log.error({ err }, "a graph query worker crashed; it is replaced on next use"),
  });
  stats.register((row) => graphArea.counts(row));

  const edit = new ContextEditService(store, databases, blobs, vectors);
  edit.addDeleteStage(graphBuilder.remove);
  const connectors = createConnectors(config, { store, databases, ingest, edit, queue, wake: () => worker?.wake() });

  const handlers: JobHandlers = {
    "database.provision": async ({ databaseId }) => databases.provision(databaseId),
    "database.delete": async ({ databaseId }) => databases.purge(databaseId),
    "ingest.item": async ({ itemId, generation }, ctx) => pipeline.process(itemId, generation, ctx),
    "ingest.graph": async ({ itemId, generation }, ctx) => pipeline.buildGraph(itemId, generation, ctx),
    "ingest.reconcile": async () => {
      await maintenance.reconcile();
    },
    "memory.purge-expired": async () => {
      await maintenance.purgeExpired();
    },
    "webhook.deliver": async ({ deliveryId, attempt }, { signal }) => webhooks.runner.run(deliveryId, attempt, signal),
    "connector.sync": async ({ connectorId, runId }, { job, signal }) => connectors.engine.run(connectorId, runId, signal, job.attempts),
    "connector.schedule": async () => {
      await connectors.control.scheduleDue();
    },
    "jobs.prune": async () => {
      await queue.prune(COMPLETED_JOB_RETENTION_MS);
      await webhooks.service.prune(FINISHED_DELIVERY_RETENTION_MS);
    },
  };

  const server = await createServer({
    logLevel: config.logLevel,
    bodyLimitBytes: config.bodyLimitBytes,
    orgs,
    limiter: new RateLimiter(config.rateLimitPerMinute),
  });
  if (rowSecurity.mode === "off") {
    server.log.warn(
      { loginRole: rowSecurity.loginRole },
      `PostgreSQL row-level security is OFF (the second wall between organizations): ${rowSecurity.reason}`,
    );
  }
  registerSystemRoutes(server, store);
  const readiness = new DatabaseReadiness(store, {
    workersRunning: () => worker?.running ?? false,
    vectorsReady: (databaseId, corpus) => vectors.ready(databaseId, corpus),
  });
  registerDatabaseRoutes(server, databases, stats, readiness);
  registerLegacyTenantRoutes(server, databases, stats, readiness);
  const uploads: UploadLimits = {
    maxFileBytes: config.maxUploadBytes,
    maxRequestBytes: config.maxRequestUploadBytes,
    maxFiles: config.maxUploadFiles,
    spoolDir: join(config.dataDir, "tmp", "uploads"),
    archive: archiveLimits,
  };
  registerIngestRoutes(server, ingest, uploads);
  registerStatusRoutes(server, databases, store);
  registerListRoutes(server, new ListService(store, databases));
  const inspect = new InspectService(store, databases, blobs, await inSystemScope(() => fileUrlSecret(config.fileUrlSecret, store)));
  registerInspectRoutes(server, inspect, publicUrlOf(server, config.publicUrl, config.host, config.port));
  registerEditRoutes(server, edit);
  const subgraphs = new SubgraphService(store, databases);
  registerGraphRoutes(server, subgraphs, new RelationsService(store, databases));
  const graphContext = new GraphContextProvider(store);
  const termIndexes = new TermIndexes(store);
  const retriever = new CorpusRetriever(store, new Bm25Retriever(store, termIndexes), vectors);
  const queryService = new QueryService(store, databases, embedder, retriever, graphProviderOf(graphContext), queryLog);
  registerQueryRoutes(server, queryService);
  registerLegacyV1Routes(server, { store, databases, ingest, query: queryService, edit, uploads });
  registerFeedbackRoutes(server, feedback);
  registerWebhookRoutes(server, webhooks.service);
  registerGraphAreaRoutes(server, graphArea);
  registerConnectorRoutes(server, connectors.service, connectors.control);

  worker = new WorkerPool(queue, handlers, {
    workerId: `${hostname()}:${process.pid}`,
    concurrency: config.workerConcurrency,
    ingestConcurrency: config.ingestConcurrency,
    leaseMs: config.jobLeaseMs,
    pollMs: config.jobPollMs,
    logger: server.log,
  });
  const activeWorker = worker;
  await server.ready();
  const warmUpAbort = new AbortController();
  const indexesWarm = config.warmUpIndexes
    ? inSystemScope(() => warmUpIndexes(store, termIndexes, vectors, warmUpAbort.signal)).catch((err: unknown) => {
        server.log.warn({ err }, "loading the search indexes at start failed; they load on first use");
        return [];
      })
    : Promise.resolve([]);

  let closing: Promise<ShutdownOutcome> | null = null;
  return {
    config,
    server: server,
    store,
    orgs,
    databases,
    graphArea,
    queue,
    worker: activeWorker,
    pipeline,
    graphBuilder,
    subgraphs,
    graphContext,
    maintenance,
    vectors,
    outbox: webhooks.outbox,
    queryLog,
    indexesWarm,
    connectors,
    close() {
      const budget = config.shutdownTimeoutMs;
      closing ??= shutdownWithin(
        budget,
        [
          { name: "close the server (in-flight requests)", run: () => server.close() },
          {
            name: "stop loading indexes",
            run: async () => {
              warmUpAbort.abort();
              await indexesWarm;
            },
          },
          // Running jobs get most of what is left; those still running then are released.
          { name: "drain jobs", run: (remaining) => activeWorker.stop(Math.floor(remaining * JOB_DRAIN_SHARE)) },
          { name: "stop the graph query workers", run: () => graphArea.close() },
          { name: "write the query log", run: () => queryLog.flush() },
          { name: "save vector indexes", run: () => vectors.saveAll() },
          { name: "close the embedder", run: () => embedder.close() },
          { name: "close the store", run: () => store.close() },
        ],
        server.log,
      );
      return closing;
    },
  };
}
