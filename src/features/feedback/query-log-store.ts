import type { Executor } from "../../platform/store/db.js";
import type { OrgTenancy } from "../../platform/tenancy.js";

/** A row of `query_log`: one answered query of an organization. */
export interface QueryLogTable {
  org_id: string;
  request_id: string;
  database_name: string | null;
  collection: string | null;
  created_at: number;
}

export type QueryLogRow = QueryLogTable;

const ROWS_PER_INSERT = 500;

/** The logged queries. One SQL implementation serves both backends. */
export class QueryLogStore {
  constructor(private readonly db: Executor) {}

  /** Inserts the entries (of any organizations: a flush writes what gathered); a repeated request id is kept once. */
  async insertMany(rows: readonly QueryLogRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await this.db
        .insertInto("query_log")
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflict((oc) => oc.columns(["org_id", "request_id"]).doNothing())
        .execute();
    }
  }

  async find(org: OrgTenancy, requestId: string): Promise<QueryLogRow | undefined> {
    return this.db.selectFrom("query_log").selectAll().where("org_id", "=", org.orgId).where("request_id", "=", requestId).executeTakeFirst();
  }
}
