import { STOP_WORDS, tokenize } from "../../engines/bm25/index.js";

/**
 * Pseudo-relevance feedback: terms frequent in the top lexical hits but absent from the query,
 * weighted by how many of those hits share them (a term in one document is noise).
 */
export function feedbackTerms(queryTerms: readonly string[], topTexts: readonly string[], max = 6): string[] {
  const inQuery = new Set(queryTerms);
  const docFreq = new Map<string, number>();
  for (const text of topTexts) {
    for (const term of new Set(tokenize(text))) {
      if (inQuery.has(term) || STOP_WORDS.has(term) || term.length < 3 || /^\d+$/.test(term)) continue;
      docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
    }
  }
  return [...docFreq]
    .filter(([, n]) => n >= 2)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([t]) => t);
}

/**
 * Maximal marginal relevance over term sets: keeps the ranking but pushes down near-duplicates
 * of chunks already chosen, so thinking mode's result list covers more of the question.
 */
export function diversify<T>(items: readonly T[], score: (t: T) => number, text: (t: T) => string, lambda = 0.85): T[] {
  const sets = new Map<T, Set<string>>(items.map((i) => [i, new Set(tokenize(text(i)))]));
  const left = [...items];
  const chosen: T[] = [];
  while (left.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    for (let i = 0; i < left.length; i++) {
      const candidate = left[i]!;
      const own = sets.get(candidate)!;
      let maxSim = 0;
      for (const c of chosen) maxSim = Math.max(maxSim, jaccard(own, sets.get(c)!));
      const value = lambda * score(candidate) - (1 - lambda) * maxSim;
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    }
    chosen.push(left.splice(best, 1)[0]!);
  }
  return chosen;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}
