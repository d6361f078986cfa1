export interface Bm25Stats {
  /** Documents in the corpus (or the filtered scope) being ranked. */
  docCount: number;
  /** Mean document length in terms, as counted by `tokenize`. */
  avgDocLength: number;
  /** Documents containing `term`. */
  docFreq(term: string): number;
}

export interface Bm25Params {
  k1: number;
  b: number;
}

export const DEFAULT_BM25_PARAMS: Readonly<Bm25Params> = Object.freeze({ k1: 1.2, b: 0.75 });

/**
 * Lucene's BM25 idf, ln(1 + (N - df + 0.5) / (df + 0.5)): always positive, so a term present in
 * most documents still counts a little instead of subtracting (the classic Robertson form does).
 */
export function bm25Idf(docCount: number, docFreq: number): number {
  const df = Math.min(Math.max(docFreq, 0), docCount);
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

/**
 * BM25 score of one document for a query. Repeated query terms count once (queries are short and
 * repetition there is rarely intended as weight). `docTerms` are the document's term frequencies
 * from `termFrequencies`, `docLength` its term count.
 */
export function bm25Score(
  queryTerms: Iterable<string>,
  docTerms: ReadonlyMap<string, number>,
  docLength: number,
  stats: Bm25Stats,
  params: Bm25Params = DEFAULT_BM25_PARAMS,
): number {
  if (stats.docCount <= 0) return 0;
  const lengthRatio = stats.avgDocLength > 0 ? docLength / stats.avgDocLength : 1;
  const norm = params.k1 * (1 - params.b + params.b * lengthRatio);
  let score = 0;
  for (const term of new Set(queryTerms)) {
    const tf = docTerms.get(term) ?? 0;
    if (tf === 0) continue;
    score += (bm25Idf(stats.docCount, stats.docFreq(term)) * (tf * (params.k1 + 1))) / (tf + norm);
  }
  return score;
}

/**
 * `bm25Score` over a document given as the frequencies of the query's distinct terms, in the order
 * of `idfs` (each term's `bm25Idf`): the same sum, term after term, without a map per document
 * (the episode context scores a few hundred windows a query).
 */
export function bm25ScoreOfCounts(
  idfs: readonly number[],
  tfs: ArrayLike<number>,
  docLength: number,
  avgDocLength: number,
  params: Bm25Params = DEFAULT_BM25_PARAMS,
): number {
  const lengthRatio = avgDocLength > 0 ? docLength / avgDocLength : 1;
  const norm = params.k1 * (1 - params.b + params.b * lengthRatio);
  let score = 0;
  for (let t = 0; t < idfs.length; t++) {
    const tf = tfs[t] ?? 0;
    if (tf === 0) continue;
    score += (idfs[t]! * (tf * (params.k1 + 1))) / (tf + norm);
  }
  return score;
}
