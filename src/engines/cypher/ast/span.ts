/** Half-open source range [start, end) in UTF-16 offsets of the query text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}
