import cluster from "node:cluster";
import { registerConnectorRoutes } from "../features/connectors/routes.js";
import { registerConsoleRoutes } from "../features/console/routes.js";
import { registerGraphRoutes } from "../features/context-graph/routes.js";
import { DatabaseReadiness } from "../features/databases/readiness.js";
import { registerDatabaseRoutes } from "../features/databases/routes.js";
import { registerFeedbackRoutes } from "../features/feedback/routes.js";
import { registerGraphAreaRoutes } from "../features/graph-collections/routes.js";
import type { UploadLimits } from "../features/ingestion/multipart-upload.js";
import { registerIngestRoutes } from "../features/ingestion/routes.js";
import { uploadSpoolDir } from "../features/ingestion/stale-uploads.js";
import { registerEditRoutes } from "../features/items/edit-routes.js";
import { registerInspectRoutes } from "../features/items/inspect-routes.js";
import { registerListRoutes } from "../features/items/list-routes.js";
import { registerStatusRoutes } from "../features/items/status-routes.js";
import { registerQueryRoutes } from "../features/search/routes.js";
import { registerSystemRoutes } from "../features/system/routes.js";
import { registerMetricsRoutes, type MetricsSource } from "../features/system/metrics-routes.js";
import { registerLegacyTenantRoutes } from "../features/v1/databases-routes.js";
import { registerLegacyV1Routes } from "../features/v1/routes.js";
import { registerWebhookRoutes } from "../features/webhooks/routes.js";
import { mcpAllowedOrigins } from "../mcp/allowed-origins.js";
import { registerMcpRoutes } from "../mcp/routes.js";
import type { Config } from "../platform/config.js";
import type { App } from "../platform/http/app-type.js";
import { publicUrlOf } from "../platform/http/public-url.js";
import { createRateLimiter } from "../platform/http/rate-limit.js";
import { createAuthFailureLimiter } from "../platform/http/auth-failure-limit.js";
import { createServer } from "../platform/http/server.js";
import { joinClusterMetrics } from "../platform/metrics/cluster-metrics.js";
import type { WorkerPool } from "../platform/jobs/worker-pool.js";
import { archiveLimitsOf, type ContextFeatures } from "./context-features.js";
import type { Features } from "./features.js";
import type { Platform } from "./platform.js";

/** Readiness calls a worker loop stalled when its last round is older than this (or 20 polls, when longer). */
const WORKER_STALL_MIN_MS = 30_000;

/** Estimated bytes per BM25 posting held in memory (10 to 20 measured; see README, Scaling out). */
const BM25_BYTES_PER_POSTING = 16;

/**
 * /metrics: the instruments, with the queue read from the store and the indexes' memory sampled at
 * each scrape. With PROCESSES > 1, every service process's instruments merged (cluster-metrics.ts).
 */
function metricsSource(config: Config, { metrics, queue, logger }: Platform, features: Features, context: ContextFeatures): MetricsSource {
  const sample = async (): Promise<void> => {
    const depth = await queue.depthByKind().catch((err: unknown) => {
      logger.warn({ err }, "metrics: the job queue could not be read; its gauges keep their last values");
      return null;
    });
    const postings = features.termIndexes.postings;
    const vectors = context.vectors.memory();
    metrics.sample(depth, {
      bm25Postings: postings,
      bm25Bytes: postings * BM25_BYTES_PER_POSTING,
      vectors: vectors.vectors,
      vectorBytes: vectors.bytes,
      vectorRebuilds: vectors.rebuilds,
      bm25Loads: features.termIndexes.loads,
    });
  };
  const render =
    config.processes > 1 && cluster.isWorker
      ? joinClusterMetrics(async () => {
          await sample();
          return metrics.snapshot();
        })
      : async () => {
          await sample();
          return metrics.render();
        };
  return { contentType: metrics.contentType, render };
}

/** The HTTP server with every feature's routes, ready to listen. */
export async function buildServer(config: Config, platform: Platform, context: ContextFeatures, features: Features, worker: WorkerPool): Promise<App> {
  const { store } = platform;
  const { databases, vectors, ingest, edit } = context;
  const server = await createServer({
    logger: platform.logger,
    bodyLimitBytes: config.bodyLimitBytes,
    maxRequestsPerConnection: config.maxRequestsPerConnection,
    timeouts: config.httpTimeouts,
    orgs: features.orgs,
    limiter: createRateLimiter(store, config.rateLimitPerMinute, platform.logger, config.processes > 1),
    authFailures: createAuthFailureLimiter(store, config.authFailuresPerMinute, platform.now, platform.logger, config.processes > 1),
    trustedProxies: config.trustedProxies,
    onResponse: (method, route, status, seconds) => platform.metrics.request(method, route, status, seconds),
    onServerError: (err) => store.health.observe(err),
  });
  registerSystemRoutes(
    server,
    store,
    {
      enabled: worker.enabled,
      running: () => worker.running,
      heartbeatAgeMs: () => worker.heartbeatAgeMs(),
      // A healthy loop goes round every JOB_POLL_MS at most; a store that answers slowly is not a stall.
      stallAfterMs: Math.max(WORKER_STALL_MIN_MS, 20 * config.jobPollMs),
      depthByKind: () => platform.queue.depthByKind(),
    },
    config.dataDir,
  );
  const readiness = new DatabaseReadiness(store, {
    workersRunning: () => worker.running,
    vectorsReady: (database, corpus) => vectors.ready(database, corpus),
  });
  registerMetricsRoutes(server, metricsSource(config, platform, features, context), config.metricsToken);
  registerDatabaseRoutes(server, databases, features.stats, readiness, features.collectionDeletion);
  registerLegacyTenantRoutes(server, databases, features.stats, readiness);
  const uploads: UploadLimits = {
    maxFileBytes: config.maxUploadBytes,
    maxRequestBytes: config.maxRequestUploadBytes,
    maxFiles: config.maxUploadFiles,
    spoolDir: uploadSpoolDir(config.dataDir),
    archive: archiveLimitsOf(config),
  };
  registerIngestRoutes(server, ingest, databases, uploads);
  registerStatusRoutes(server, databases, features.statuses);
  registerListRoutes(server, features.list);
  registerInspectRoutes(server, features.inspect, databases, publicUrlOf(server, config.publicUrl, config.host, config.port));
  registerEditRoutes(server, edit, databases);
  registerGraphRoutes(server, features.subgraphs, features.relations, databases);
  registerQueryRoutes(server, features.query);
  registerLegacyV1Routes(server, { statuses: features.statuses, databases, ingest, query: features.query, edit, uploads });
  registerFeedbackRoutes(server, features.feedback);
  registerWebhookRoutes(server, context.webhooks.service);
  registerGraphAreaRoutes(server, features.graphArea, databases);
  registerConnectorRoutes(server, features.connectors.service, features.connectors.control, databases);
  const boundPort = (): number => {
    const address = server.server.address();
    return address !== null && typeof address === "object" ? address.port : config.port;
  };
  registerMcpRoutes(
    server,
    mcpAllowedOrigins(
      { host: config.host, publicUrl: config.publicUrl, extraHosts: config.mcpAllowedHosts, extraOrigins: config.mcpAllowedOrigins },
      boundPort,
    ),
  );
  registerConsoleRoutes(server, config.consoleDir);
  await server.ready();
  return server;
}
