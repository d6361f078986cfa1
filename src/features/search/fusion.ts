/** One retriever's ranked output for one corpus: chunk keys with raw scores, best first. */
export interface RankedList {
  readonly name: "dense" | "bm25" | "phrase" | "expansion";
  readonly hits: ReadonlyArray<{ chunkKey: number; score: number }>;
}

export interface FusionWeights {
  readonly dense: number;
  readonly bm25: number;
  readonly phrase: number;
  /** BM25 over the words a chat model suggested (thinking mode with LLM_*); 0 without them. */
  readonly expansion?: number;
}

export interface Fused {
  readonly chunkKey: number;
  readonly score: number;
  /** Each retriever's normalised contribution, for debugging and reranking. */
  readonly parts: Readonly<Partial<Record<RankedList["name"] | "neighbour", number>>>;
}

/**
 * Normalises each list to [0, 1] explicitly (BM25 by its best score, dense cosine by min-max
 * over the candidates, phrase matches as 1) and combines them with weights. Chunks missing
 * from a list get 0 from it.
 */
function normalise(list: RankedList): Map<number, number> {
  const out = new Map<number, number>();
  if (list.hits.length === 0) return out;
  const scores = list.hits.map((h) => h.score);
  const max = Math.max(...scores);
  const min = Math.min(...scores);
  for (const h of list.hits) {
    let v: number;
    switch (list.name) {
      case "bm25":
      case "expansion":
        v = max > 0 ? h.score / max : 0;
        break;
      case "dense":
        v = max - min > 1e-9 ? (h.score - min) / (max - min) : 1;
        break;
      case "phrase":
        v = 1;
        break;
    }
    out.set(h.chunkKey, v);
  }
  return out;
}

export function fuse(lists: readonly RankedList[], weights: FusionWeights): Fused[] {
  const normalised = lists.map((l) => ({ name: l.name, scores: normalise(l) }));
  const keys = new Set<number>();
  for (const l of normalised) for (const k of l.scores.keys()) keys.add(k);
  const fused: Fused[] = [];
  for (const key of keys) {
    const parts: Partial<Record<RankedList["name"], number>> = {};
    let score = 0;
    for (const l of normalised) {
      const v = l.scores.get(key);
      if (v === undefined) continue;
      parts[l.name] = v;
      score += (weights[l.name] ?? 0) * v;
    }
    fused.push({ chunkKey: key, score, parts });
  }
  return fused.sort((a, b) => b.score - a.score || a.chunkKey - b.chunkKey);
}

/**
 * `first` and `second` rankings of one query blended: each chunk's score is (1 - weight) of its
 * first score plus weight of its second (0 where a list lacks it); the second's parts are kept.
 */
export function interpolate(first: readonly Fused[], second: readonly Fused[], weight: number): Fused[] {
  const out = new Map<number, Fused>();
  for (const f of first) out.set(f.chunkKey, { chunkKey: f.chunkKey, score: (1 - weight) * f.score, parts: f.parts });
  for (const f of second) {
    const before = out.get(f.chunkKey)?.score ?? 0;
    out.set(f.chunkKey, { chunkKey: f.chunkKey, score: before + weight * f.score, parts: f.parts });
  }
  return [...out.values()].sort((a, b) => b.score - a.score || a.chunkKey - b.chunkKey);
}

/** Dense weight for a query when `alpha` is "auto": keyword-like queries lean on BM25. */
export function autoAlpha(query: string, termCount: number): number {
  const identifierLike = /["'`]|[A-Za-z]+[0-9_]+|[a-z][A-Z]|[#@/\\.:]\S/.test(query);
  if (identifierLike) return 0.15;
  if (termCount <= 2) return 0.25;
  return 0.3;
}
