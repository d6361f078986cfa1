import type { JobHandlerSet } from "../../platform/jobs/job-handlers.js";
import type { DatabasePurge } from "./purge.js";
import type { DatabaseService } from "./service.js";

/** A new database becomes ready; a deleted one's data is purged. */
export function databaseJobs(databases: DatabaseService, purge: DatabasePurge): JobHandlerSet<"database.provision" | "database.delete"> {
  return {
    "database.provision": async ({ databaseId }) => databases.provision(databaseId),
    "database.delete": async ({ databaseId }) => purge.run(databaseId),
  };
}
