import type { JobHandlerSet } from "./job-handlers.js";
import type { JobQueue } from "./queue.js";

const COMPLETED_JOB_RETENTION_MS = 24 * 60 * 60_000;

/** Removes a subsystem's finished records past its retention; run by `jobs.prune`. */
export type Pruner = () => Promise<unknown>;

/** The platform's job: `jobs.prune` forgets completed jobs (dead ones are kept), then runs the features' pruners. */
export function platformJobs(queue: JobQueue, pruners: readonly Pruner[]): JobHandlerSet<"jobs.prune"> {
  return {
    "jobs.prune": async () => {
      await queue.prune(COMPLETED_JOB_RETENTION_MS);
      for (const prune of pruners) await prune();
    },
  };
}
