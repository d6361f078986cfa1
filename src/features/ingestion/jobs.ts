import type { JobHandlerSet } from "../../platform/jobs/job-handlers.js";
import type { ContextMaintenance } from "../items/maintenance.js";
import type { JobQueue } from "../../platform/jobs/queue.js";
import type { IngestPipeline, PipelineJobs } from "./pipeline.js";
import { graphJobKey } from "./service.js";

/** The pipeline's job writes inside the transaction that makes items searchable. */
export function pipelineJobs(queue: JobQueue): PipelineJobs {
  return {
    scheduleGraph: async (tx, items) => {
      const jobs = items.map((item) => ({ payload: { itemId: item.id, generation: item.generation }, dedupeKey: graphJobKey(item.id, item.generation) }));
      await queue.enqueueMany("ingest.graph", jobs, { executor: tx });
    },
    complete: async (tx, jobs) => {
      await queue.completeMany(jobs, tx);
    },
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
