import type { Backend } from "../../platform/store/db.js";
import type { Corpus } from "../items/item-types.js";
import type { DatabaseTenancy } from "../../platform/tenancy.js";
import type { TraversalScope } from "./traversal-store.js";

/** A graph read as resolved at the edge: the database tenancy (organization, database, collection), the corpus, the ACL. */
export interface GraphRead extends DatabaseTenancy {
  readonly corpus: Corpus;
  /** Expanded principals, or null for no ACL scoping. */
  readonly principals: readonly string[] | null;
}

/** The one graph a read addresses, as the traversal and the readers take it. */
export const traversalScopeOf = (backend: Backend, at: GraphRead, now: number): TraversalScope => ({
  backend,
  orgId: at.orgId,
  databaseId: at.databaseId,
  corpus: at.corpus,
  collection: at.collection,
  principals: at.principals,
  now,
});
