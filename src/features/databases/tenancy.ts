import type { DatabaseTenancy, OrgTenancy } from "../../platform/tenancy.js";
import { defaultCollectionOf, type DatabaseService } from "./service.js";
import type { DatabaseRow } from "./store.js";

/** A database tenancy with the database's row, as resolved at the edge (one lookup per request). */
export interface ResolvedDatabase extends DatabaseTenancy {
  readonly database: DatabaseRow;
}

/** Resolves the database a request names (404 DATABASE_NOT_FOUND when its organization has none by that name). */
export async function resolveDatabase(databases: DatabaseService, org: OrgTenancy, name: string, collection?: string): Promise<ResolvedDatabase> {
  const database = await databases.get(org.orgId, name);
  return tenancyOf(database, collection);
}

/** The tenancy of a database row already in hand. */
export const tenancyOf = (database: DatabaseRow, collection?: string): ResolvedDatabase => ({
  orgId: database.org_id,
  databaseId: database.id,
  collection: collection ?? defaultCollectionOf(database),
  database,
});
