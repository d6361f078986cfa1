/**
 * Whom a piece of work is for, resolved once at the edge and handed down: a route builds it from
 * the authenticated key (and, for a route that addresses a database, from the database and
 * collection named in the request); services receive it and hand it to stores, which scope every
 * query on a tenant table by `orgId` (and `databaseId` when they address one database). Nothing
 * below the edge takes a loose organization id.
 */
export interface OrgTenancy {
  readonly orgId: string;
}

/** A request addressing one database of its organization, and one collection in it. */
export interface DatabaseTenancy extends OrgTenancy {
  readonly databaseId: string;
  /** The collection asked for, or the database's default. */
  readonly collection: string;
}
