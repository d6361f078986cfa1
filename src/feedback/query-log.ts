import type { Executor } from "../store/db.js";
import type { QueryLogTable } from "../store/schema.js";

export interface LoggedQuery {
  readonly orgId: string;
  /** The query's `meta.request_id` (also its X-Request-ID header). */
  readonly requestId: string;
  readonly database?: string | null;
  readonly collection?: string | null;
}

/**
 * The queries each organization made, so feedback can only refer to a real query of the
 * same organization. `POST /query` records every query it answers; the executor may be the
 * root handle or the query's own transaction.
 */
export class QueryLog {
  constructor(private readonly now: () => number = Date.now) {}

  async record(executor: Executor, entry: LoggedQuery): Promise<void> {
    await executor
      .insertInto("query_log")
      .values({
        org_id: entry.orgId,
        // UUIDs compare case-insensitively; feedback looks them up lowercased.
        request_id: entry.requestId.toLowerCase(),
        database_name: entry.database ?? null,
        collection: entry.collection ?? null,
        created_at: this.now(),
      })
      .onConflict((oc) => oc.columns(["org_id", "request_id"]).doNothing())
      .execute();
  }

  async find(executor: Executor, orgId: string, requestId: string): Promise<QueryLogTable | undefined> {
    return executor
      .selectFrom("query_log")
      .selectAll()
      .where("org_id", "=", orgId)
      .where("request_id", "=", requestId.toLowerCase())
      .executeTakeFirst();
  }
}
