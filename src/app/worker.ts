import { hostname } from "node:os";
import { connectorJobs } from "../features/connectors/jobs.js";
import { databaseJobs } from "../features/databases/jobs.js";
import { ingestionJobs } from "../features/ingestion/jobs.js";
import { deliveryPruner, webhookJobs } from "../features/webhooks/jobs.js";
import type { Config } from "../platform/config.js";
import { combineJobHandlers } from "../platform/jobs/job-handlers.js";
import { platformJobs } from "../platform/jobs/jobs.js";
import type { JobHandlers } from "../platform/jobs/worker.js";
import { WorkerPool } from "../platform/jobs/worker-pool.js";
import type { ContextFeatures } from "./context-features.js";
import type { Features } from "./features.js";
import type { Platform } from "./platform.js";

/**
 * The features' job handlers, one per kind of the job catalog (the type of `handlers` proves it),
 * and the workers that run them. They start with start(); enqueueing wakes them.
 */
export function buildWorker(config: Config, { logger, queue }: Platform, context: ContextFeatures, features: Features): WorkerPool {
  const handlers: JobHandlers = combineJobHandlers(
    databaseJobs(context.databases, features.databasePurge),
    ingestionJobs(context.pipeline, context.maintenance),
    webhookJobs(context.webhooks.runner),
    connectorJobs(features.connectors),
    platformJobs(queue, [deliveryPruner(context.webhooks.service)]),
  );
  return new WorkerPool(queue, handlers, {
    workerId: `${hostname()}:${process.pid}`,
    concurrency: config.workerConcurrency,
    ingestConcurrency: config.ingestConcurrency,
    leaseMs: config.jobLeaseMs,
    pollMs: config.jobPollMs,
    logger,
  });
}
