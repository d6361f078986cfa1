import { STOP_WORDS } from "../../engines/bm25/index.js";

/**
 * Pseudo-relevance feedback: terms frequent in the top lexical hits (each hit's indexed terms)
 * but absent from the query, weighted by how many of those hits share them (a term in one
 * document is noise).
 */
export function feedbackTerms(queryTerms: readonly string[], topTerms: ReadonlyArray<Iterable<string>>, max = 6): string[] {
  const inQuery = new Set(queryTerms);
  const docFreq = new Map<string, number>();
  for (const terms of topTerms) {
    for (const term of new Set(terms)) {
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
 * of chunks already chosen, so thinking mode's result list covers more of the question. Only the
 * first `limit` places are chosen this way (the caller keeps no more); the rest follow in their
 * given order. A chunk's terms are its indexed terms (no tokenizing here: that was 7 ms of a
 * thinking query). Term sets are sorted ids, so a similarity is a merge of two integer arrays: on
 * the knowledge set's long chunks, string sets made this most of a thinking query's time.
 */
export function diversify<T>(items: readonly T[], score: (t: T) => number, terms: (t: T) => Iterable<string>, lambda = 0.85, limit = items.length): T[] {
  const ids = new Map<string, number>();
  const sets = items.map((i) => {
    const set = new Set<number>();
    for (const term of terms(i)) {
      let id = ids.get(term);
      if (id === undefined) ids.set(term, (id = ids.size));
      set.add(id);
    }
    return Int32Array.from(set).sort();
  });
  // Each candidate's highest similarity to the chosen so far, updated with each new choice only.
  const maxSim = new Float64Array(items.length);
  const left = items.map((_, i) => i);
  const chosen: T[] = [];
  while (left.length > 0 && chosen.length < limit) {
    let best = 0;
    let bestValue = -Infinity;
    for (let j = 0; j < left.length; j++) {
      const i = left[j]!;
      const value = lambda * score(items[i]!) - (1 - lambda) * maxSim[i]!;
      if (value > bestValue) {
        bestValue = value;
        best = j;
      }
    }
    const picked = left.splice(best, 1)[0]!;
    chosen.push(items[picked]!);
    if (chosen.length < limit) for (const i of left) maxSim[i] = Math.max(maxSim[i]!, jaccard(sets[i]!, sets[picked]!));
  }
  for (const i of left) chosen.push(items[i]!);
  return chosen;
}

/** Jaccard similarity of two sorted sets of term ids. */
function jaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let inter = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/**
 * Keeps the order but lets no group (an item) hold more than `perGroup` places before every other
 * group's items have had theirs: a group's further members move, in order, behind the rest.
 * Thinking mode lends neighbouring chunks more weight, so one long document's chunks could fill the
 * whole list (a knowledge question's 50 results from 8 documents, its answer's document 51st).
 */
export function spreadGroups<T>(items: readonly T[], group: (t: T) => string, perGroup: number): T[] {
  const taken = new Map<string, number>();
  const first: T[] = [];
  const later: T[] = [];
  for (const item of items) {
    const key = group(item);
    const n = taken.get(key) ?? 0;
    taken.set(key, n + 1);
    (n < perGroup ? first : later).push(item);
  }
  return [...first, ...later];
}
