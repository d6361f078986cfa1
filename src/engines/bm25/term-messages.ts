/** A batch of texts to count the BM25 terms of. */
export interface TermRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

/** Per text, its distinct terms and their counts (parallel arrays: cheaper to pass than maps). */
export type TermReply =
  { readonly id: number; readonly counts: ReadonlyArray<readonly [readonly string[], readonly number[]]> } | { readonly id: number; readonly error: string };

/** What a term worker is started with. */
export interface TermWorkerData {
  /** Nice value of its thread (0: unchanged). */
  readonly nice: number;
}
