import type { OrgTenancy } from "../../platform/tenancy.js";
import { defaultCollectionOf, type DatabaseService } from "./service.js";
import { resolveDatabase, type ResolvedDatabase } from "./tenancy.js";

/** Removes one subsystem's data of the collection `at` names; answers how many of its objects went. */
export type CollectionPurger = (at: ResolvedDatabase) => Promise<number>;

export interface DeletedCollection {
  /** Whether the collection was listed before (GET /databases/collections). */
  existed: boolean;
  /** Items (and graph-area collections) removed. */
  removed: number;
}

/**
 * DELETE /databases/collections: every subsystem removes what it holds of one collection (context
 * items with their chunks, vectors, files and graph; a graph-area collection of that name), then
 * the collection leaves the listing. Like the spec's graph-collection delete, a missing collection
 * is no error. The default collection is emptied but stays listed: it is the one a request
 * without `collection` uses, and exists as long as its database does.
 */
export class CollectionDeletion {
  constructor(
    private readonly databases: DatabaseService,
    private readonly purgers: readonly CollectionPurger[],
  ) {}

  async delete(org: OrgTenancy, database: string, collection: string): Promise<DeletedCollection> {
    const at = await resolveDatabase(this.databases, org, database, collection);
    const existed = (await this.databases.collections(org.orgId, database)).includes(collection);
    let removed = 0;
    for (const purge of this.purgers) removed += await purge(at);
    if (collection !== defaultCollectionOf(at.database)) await this.databases.removeCollection(at.database, collection);
    return { existed, removed };
  }
}
