import { sql } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";

/** Locks the ingestion path needs beyond the items store. */
export class IngestStore {
  constructor(
    private readonly db: Executor,
    private readonly backend: Backend,
  ) {}

  /**
   * Serialises file uploads into one database until the transaction ends, so two concurrent
   * uploads of one file cannot both miss the other (PostgreSQL; SQLite's BEGIN IMMEDIATE
   * already holds the database's write lock).
   */
  async lockFileUploads(database: Pick<DatabaseTenancy, "databaseId">): Promise<void> {
    if (this.backend !== "postgres") return;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ingest-files:${database.databaseId}`}, 0))`.execute(this.db);
  }
}
