/** A request to the HNSW thread about one of its indexes (`index`, an id the caller picks). */
export type HnswRequest =
  | { readonly id: number; readonly op: "create"; readonly index: number; readonly dimensions: number }
  | { readonly id: number; readonly op: "load"; readonly index: number; readonly path: string }
  | { readonly id: number; readonly op: "add"; readonly index: number; readonly keys: Float64Array; readonly flat: Float32Array; readonly threads: number }
  | { readonly id: number; readonly op: "remove"; readonly index: number; readonly keys: Float64Array }
  | { readonly id: number; readonly op: "search"; readonly index: number; readonly vector: Float32Array; readonly k: number }
  | { readonly id: number; readonly op: "save"; readonly index: number; readonly path: string }
  | { readonly id: number; readonly op: "drop"; readonly index: number };

/** What each request answers: `keys` of a loaded file (null without its key list), the keys an add left stored. */
export interface HnswResults {
  readonly create: null;
  readonly load: { readonly keys: Float64Array | null };
  readonly add: null;
  readonly remove: null;
  readonly search: { readonly keys: Float64Array; readonly scores: Float64Array };
  readonly save: null;
  readonly drop: null;
}

export type HnswReply =
  | { readonly id: number; readonly ok: true; readonly result: HnswResults[keyof HnswResults] }
  /** `stored`: after a failed add, which of its keys the index holds (a bulk add can fail part way). */
  | { readonly id: number; readonly ok: false; readonly message: string; readonly stored?: Float64Array };
