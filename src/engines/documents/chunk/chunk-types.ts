export interface Chunk {
  /** 0-based order within the document. */
  position: number;
  /** Equal to `document.text.slice(charStart, charEnd)`. */
  text: string;
  sectionPath: string[];
  page?: number;
  /** Unit key of the blocks (one email, comment, attachment or conversation turn), if any. */
  unit?: string;
  charStart: number;
  charEnd: number;
  tokenCount: number;
}

/** Token boundaries of a text as [start, end) character offsets, in order. */
export type TokenSpanner = (text: string) => Array<[number, number]>;

export interface ChunkOptions {
  /** Upper bound of tokens per chunk; default 256. */
  maxTokens?: number;
  /** Tokens repeated between consecutive pieces of one long block; default 32. */
  overlapTokens?: number;
  /** How tokens are counted; default `wordPieceEstimate`. */
  tokenSpans?: TokenSpanner;
}

export interface ResolvedChunkOptions {
  maxTokens: number;
  overlapTokens: number;
  tokenSpans: TokenSpanner;
  /** `tokenSpans(text).length`, without the spans when the counter has a cheaper way. */
  countTokens: (text: string) => number;
}
