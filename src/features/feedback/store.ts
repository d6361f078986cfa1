import { sql } from "kysely";
import type { Backend, Executor } from "../../platform/store/db.js";
import type { FeedbackTable } from "./rows.js";

export type FeedbackRow = FeedbackTable;

/** Feedback rows. One SQL implementation serves both backends. */
export class FeedbackStore {
  constructor(
    private readonly db: Executor,
    private readonly backend: Backend,
  ) {}

  /**
   * Serialises submissions of one organization until the transaction ends, so a count
   * followed by an insert cannot race with another process. SQLite's BEGIN IMMEDIATE
   * already holds the database's write lock.
   */
  async lockOrganization(orgId: string): Promise<void> {
    if (this.backend !== "postgres") return;
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`feedback:${orgId}`}, 0))`.execute(this.db);
  }

  /** created_at of the organization's newest submissions after `since`, newest first. */
  async newestTimes(orgId: string, since: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("feedback")
      .select("created_at")
      .where("org_id", "=", orgId)
      .where("created_at", ">", since)
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => Number(r.created_at));
  }

  async insert(row: FeedbackRow): Promise<void> {
    await this.db.insertInto("feedback").values(row).execute();
  }

  async deleteByDatabase(databaseId: string): Promise<void> {
    await this.db.deleteFrom("feedback").where("database_id", "=", databaseId).execute();
  }
}
