import type { JobHandlerSet } from "../../platform/jobs/job-handlers.js";
import type { Pruner } from "../../platform/jobs/jobs.js";
import type { DeliveryRunner } from "./delivery-runner.js";
import type { WebhookService } from "./service.js";

const FINISHED_DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** One delivery attempt per job. */
export function webhookJobs(runner: DeliveryRunner): JobHandlerSet<"webhook.deliver"> {
  return {
    "webhook.deliver": async ({ deliveryId, attempt }, { signal }) => runner.run(deliveryId, attempt, signal),
  };
}

/** Finished deliveries are forgotten after 30 days (run by `jobs.prune`). */
export function deliveryPruner(service: WebhookService): Pruner {
  return () => service.prune(FINISHED_DELIVERY_RETENTION_MS);
}
