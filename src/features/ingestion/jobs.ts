import type { JobHandlerSet } from "../../platform/jobs/job-handlers.js";
import type { ContextMaintenance } from "../items/maintenance.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { GraphScheduler, IngestPipeline } from "./pipeline.js";
import { graphJobKey } from "./service.js";

/** Enqueues the `ingest.graph` jobs of items inside the transaction that makes them searchable. */
export function scheduleGraphJobs(queue: JobQueue): GraphScheduler {
  return async (tx, items) => {
    const jobs = items.map((item) => ({ payload: { itemId: item.id, generation: item.generation }, dedupeKey: graphJobKey(item.id, item.generation) }));
    await queue.enqueueMany("ingest.graph", jobs, { executor: tx });
  };
}

/** An item's pipeline (to searchable, then its graph) and the scheduled upkeep of items. */
export function ingestionJobs(
  pipeline: IngestPipeline,
  maintenance: ContextMaintenance,
): JobHandlerSet<"ingest.item" | "ingest.graph" | "ingest.reconcile" | "memory.purge-expired"> {
  return {
    "ingest.item": async ({ itemId, generation }, ctx) => pipeline.process(itemId, generation, ctx),
    "ingest.graph": async ({ itemId, generation }, ctx) => pipeline.buildGraph(itemId, generation, ctx),
    "ingest.reconcile": async () => {
      await maintenance.reconcile();
    },
    "memory.purge-expired": async () => {
      await maintenance.purgeExpired();
    },
  };
}
