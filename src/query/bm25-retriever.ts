import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Store } from "../store/db.js";
import type { Corpus } from "../store/schema.js";
import { bm25Idf, DEFAULT_BM25_PARAMS } from "../text/index.js";

export interface RetrievalScope {
  readonly databaseId: string;
  readonly corpus: Corpus;
  readonly collections: readonly string[];
}

export interface ScoredChunk {
  readonly chunkKey: number;
  readonly score: number;
}

// In a large scope a term found in more than a tenth of the chunks adds little (idf < ~2.3) but
// costs a posting row per chunk; "or" queries skip such terms while rarer ones remain. Decided on
// document frequencies alone, so both backends still rank identically.
const PRUNE_MIN_DOCS = 10_000;
const PRUNE_MAX_SHARE = 0.1;

function prune<T extends { term: string }>(weighted: readonly T[], df: ReadonlyMap<string, number>, docCount: number): T[] {
  if (docCount < PRUNE_MIN_DOCS) return [...weighted];
  const rare = weighted.filter((w) => (df.get(w.term) ?? 0) <= PRUNE_MAX_SHARE * docCount);
  return rare.length > 0 ? rare : [...weighted];
}

interface Stats {
  docCount: number;
  avgDocLength: number;
  at: number;
}

// Corpus statistics change with every ingested chunk but move slowly; a short cache keeps
// two aggregate scans off every query while staying fresh enough for ranking.
const STATS_TTL_MS = 2_000;

/**
 * BM25 over the stored postings, computed in SQL so that both backends rank identically
 * (same tokenizer, same k1 / b, same Lucene idf). `and` keeps chunks containing every term.
 * `visible` is the item predicate over `context_items` aliased `i` (scope, filters, ACL, expiry).
 */
export class Bm25Retriever {
  private readonly stats = new Map<string, Stats>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async search(scope: RetrievalScope, terms: readonly string[], k: number, operator: "or" | "and", visible: RawBuilder<SqlBool> | null): Promise<ScoredChunk[]> {
    const unique = [...new Set(terms)];
    if (unique.length === 0 || scope.collections.length === 0) return [];
    const stats = await this.statsOf(scope);
    if (stats.docCount === 0) return [];
    const df = await this.docFreqs(scope, unique);
    const present = unique.map((t) => ({ term: t, idf: bm25Idf(stats.docCount, df.get(t) ?? 0) })).filter((w) => (df.get(w.term) ?? 0) > 0);
    if (present.length === 0 || (operator === "and" && present.length < unique.length)) return [];
    const weighted = operator === "or" ? prune(present, df, stats.docCount) : present;
    const { k1, b } = DEFAULT_BM25_PARAMS;
    const weights = sql.join(
      weighted.map((w, i) => (i === 0 ? sql`SELECT ${w.term} AS term, ${w.idf} AS idf` : sql`SELECT ${w.term}, ${w.idf}`)),
      sql` UNION ALL `,
    );
    const collections = sql.join(scope.collections.map((c) => sql`${c}`));
    const itemJoin = visible ? sql`JOIN context_items i ON i.id = c.item_id AND ${visible}` : sql``;
    const having = operator === "and" ? sql`HAVING COUNT(*) = ${weighted.length}` : sql``;
    const rows = await sql<{ chunk_key: number; score: number }>`
      SELECT t.chunk_key AS chunk_key,
             SUM(w.idf * (t.tf * ${k1 + 1}) / (t.tf + ${k1} * (1 - ${b} + ${b} * c.term_count / ${stats.avgDocLength}))) AS score
      FROM context_terms t
      JOIN (${weights}) w ON w.term = t.term
      JOIN context_chunks c ON c.chunk_key = t.chunk_key
      ${itemJoin}
      WHERE t.database_id = ${scope.databaseId} AND t.corpus = ${scope.corpus} AND t.collection IN (${collections})
        AND t.term IN (${sql.join(weighted.map((w) => sql`${w.term}`))})
      GROUP BY t.chunk_key
      ${having}
      ORDER BY score DESC, chunk_key
      LIMIT ${k}`.execute(this.store.db);
    return rows.rows.map((r) => ({ chunkKey: Number(r.chunk_key), score: Number(r.score) }));
  }

  private async statsOf(scope: RetrievalScope): Promise<Stats> {
    const key = `${scope.databaseId}|${scope.corpus}|${scope.collections.join("\u0000")}`;
    const cached = this.stats.get(key);
    if (cached && this.now() - cached.at < STATS_TTL_MS) return cached;
    const row = await this.store.db
      .selectFrom("context_chunks")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.avg<number>("term_count").as("avg")])
      .where("database_id", "=", scope.databaseId)
      .where("corpus", "=", scope.corpus)
      .where("collection", "in", [...scope.collections])
      .executeTakeFirst();
    const stats = { docCount: Number(row?.n ?? 0), avgDocLength: Math.max(1, Number(row?.avg ?? 1)), at: this.now() };
    if (this.stats.size > 10_000) this.stats.clear();
    this.stats.set(key, stats);
    return stats;
  }

  private async docFreqs(scope: RetrievalScope, terms: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.store.db
      .selectFrom("context_terms")
      .select(["term", (eb) => eb.fn.countAll<number>().as("n")])
      .where("database_id", "=", scope.databaseId)
      .where("corpus", "=", scope.corpus)
      .where("collection", "in", [...scope.collections])
      .where("term", "in", [...terms])
      .groupBy("term")
      .execute();
    return new Map(rows.map((r) => [r.term, Number(r.n)]));
  }
}
