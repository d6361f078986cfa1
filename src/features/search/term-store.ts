import { sql, type Expression, type SqlBool } from "kysely";
import type { Executor } from "../../platform/store/db.js";
import { contentScopeOnly, scopeColumns, type ContentScope } from "../items/item-types.js";
import type { OrgTenancy } from "../../platform/tenancy.js";
import { decodeTerms } from "../items/chunk-terms.js";
import { statementTemplate } from "../../platform/store/statement-templates.js";

/** One BM25 index: a collection's corpus in one database of one organization. */
export type TermScope = ContentScope;

/**
 * The scope's chunk keys above `after` (and up to `upTo`): plainly, and again as row comparisons
 * on the columns of the scope index (database, corpus, collection, chunk key). With the plain
 * range alone, PostgreSQL walked the primary key whenever the table's visibility map lagged (no
 * vacuum since the last bulk insert): at 1,000,000 knowledge chunks, a catch-up with nothing new
 * read the 100,000 memory chunks whose keys came after, 47 ms on every query. The row comparison
 * only the scope index serves keeps it to a seek there (0.07 ms). SQLite seeks with the plain
 * range (it does not seek on a row comparison beside equalities), the other is checked per row.
 */
function keyRange(scope: TermScope, after: number, upTo: number): Expression<SqlBool> {
  const columns = sql`(database_id, corpus, collection, chunk_key)`;
  const lower = sql<SqlBool>`chunk_key > ${after} AND ${columns} > (${scope.databaseId}, ${scope.corpus}, ${scope.collection}, ${after})`;
  if (upTo >= Number.MAX_SAFE_INTEGER) return lower;
  return sql<SqlBool>`${lower} AND chunk_key <= ${upTo} AND ${columns} <= (${scope.databaseId}, ${scope.corpus}, ${scope.collection}, ${upTo})`;
}

const chunksAfterQuery = (db: Executor, scope: TermScope, after: number, upTo: number) =>
  db
    .selectFrom("context_chunks")
    .select(["chunk_key", "term_count"])
    .where((eb) => eb.and(scopeColumns(scope)))
    .where(keyRange(scope, after, upTo))
    .orderBy("chunk_key");

/**
 * The chunks above a key, unbounded: every query's catch-up read of its BM25 index (chunks
 * written since the last one it saw, by any process; nearly always none), compiled once
 * (statement-templates.ts). Kysely building it was most of its 0.17 ms a query.
 */
const chunksAbove = statementTemplate(
  () => "",
  (db, v: { scope: TermScope; after: number }) => chunksAfterQuery(db, v.scope, v.after, Number.MAX_SAFE_INTEGER),
);

/** The stored postings the in-process BM25 indexes are built from (term-indexes.ts). */
export class TermStore {
  constructor(private readonly db: Executor) {}

  /** The scope's chunks with a key above `after` and up to `upTo`. */
  async countChunks(scope: TermScope, after: number, upTo: number): Promise<number> {
    const row = await this.db
      .selectFrom("context_chunks")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where((eb) => eb.and(scopeColumns(scope)))
      .where(keyRange(scope, after, upTo))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The scope's chunks with a key above `after` (and up to `upTo`), in key order, with their lengths in terms. */
  async chunksAfter(scope: TermScope, after: number, upTo = Number.MAX_SAFE_INTEGER): Promise<Array<{ key: number; length: number }>> {
    const rows =
      upTo >= Number.MAX_SAFE_INTEGER
        ? await chunksAbove.run(this.db, { scope: contentScopeOnly(scope), after })
        : await chunksAfterQuery(this.db, scope, after, upTo).execute();
    return rows.map((r) => ({ key: Number(r.chunk_key), length: Number(r.term_count) }));
  }

  /** The postings of the chunks (each chunk's in its row: chunk-terms.ts), by chunk key. */
  async postings(org: OrgTenancy, chunkKeys: readonly number[]): Promise<Map<number, Array<[string, number]>>> {
    const rows = await this.db
      .selectFrom("context_chunks")
      .select(["chunk_key", "terms"])
      .where("org_id", "=", org.orgId)
      .where("chunk_key", "in", [...chunkKeys])
      .execute();
    return new Map(rows.map((r) => [Number(r.chunk_key), decodeTerms(r.terms)]));
  }

  /**
   * Every scope that has chunks, with its highest chunk key, most recently written first.
   * Spans organizations on purpose: the start-up warm-up loads whatever indexes exist.
   */
  async scopesAcrossOrganizations(): Promise<Array<{ scope: TermScope; lastKey: number }>> {
    const rows = await this.db
      .selectFrom("context_chunks")
      .select(["org_id", "database_id", "corpus", "collection", (eb) => eb.fn.max("chunk_key").as("last")])
      .groupBy(["org_id", "database_id", "corpus", "collection"])
      .orderBy("last", "desc")
      .execute();
    return rows.map((r) => ({ scope: { orgId: r.org_id, databaseId: r.database_id, corpus: r.corpus, collection: r.collection }, lastKey: Number(r.last) }));
  }

  /** The vector size of a chunk of the scope, or undefined when it has no vector. */
  async vectorDims(scope: TermScope, chunkKey: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom("context_vectors")
      .select("dims")
      .where("org_id", "=", scope.orgId)
      .where("chunk_key", "=", chunkKey)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.dims);
  }
}
