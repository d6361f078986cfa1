import type { Executor } from "../../platform/store/db.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";

/** The probes of GET /databases/status that read tables directly. */
export class ReadinessStore {
  constructor(private readonly db: Executor) {}

  /** Reads one row of each context-graph table of the database: throws when either does not answer. */
  async graphTablesAnswer(database: Pick<DatabaseTenancy, "orgId" | "databaseId">): Promise<void> {
    for (const table of ["context_graph_entities", "context_graph_triplets"] as const) {
      await this.db
        .selectFrom(table)
        .select("database_id")
        .where("org_id", "=", database.orgId)
        .where("database_id", "=", database.databaseId)
        .limit(1)
        .execute();
    }
  }
}
