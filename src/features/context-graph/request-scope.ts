import { resolveDatabase } from "../databases/tenancy.js";
import type { DatabaseService } from "../databases/service.js";
import type { Store } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import type { TraversalScope } from "./traversal-store.js";

/** A graph read as resolved at the edge: organization, database name, collection, corpus, ACL. */
export interface GraphReadAddress {
  readonly orgId: string;
  readonly database: string;
  readonly collection: string | undefined;
  readonly corpus: Corpus;
  /** Expanded principals, or null for no ACL scoping. */
  readonly principals: readonly string[] | null;
}

/** The one graph a read addresses; an unknown database is DATABASE_NOT_FOUND. */
export async function traversalScopeFor(databases: DatabaseService, store: Store, at: GraphReadAddress, now: number): Promise<TraversalScope> {
  const scope = await resolveDatabase(databases, { orgId: at.orgId }, at.database, at.collection);
  return {
    backend: store.backend,
    orgId: at.orgId,
    databaseId: scope.databaseId,
    corpus: at.corpus,
    collection: scope.collection,
    principals: at.principals,
    now,
  };
}
