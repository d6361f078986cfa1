import type { JobHandlerSet } from "../../platform/jobs/job-handlers.js";
import type { Connectors } from "./index.js";

/** One sync run per job; the schedule pass starts the runs of due connectors. */
export function connectorJobs(connectors: Connectors): JobHandlerSet<"connector.sync" | "connector.schedule"> {
  return {
    "connector.sync": async ({ connectorId, runId }, { job, signal }) => connectors.engine.run(connectorId, runId, signal, job.attempts),
    "connector.schedule": async () => {
      await connectors.control.scheduleDue();
    },
  };
}
