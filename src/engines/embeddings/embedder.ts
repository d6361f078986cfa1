/** A dense text embedding provider. Vectors are L2-normalised so cosine equals dot product. */
export interface Embedder {
  /** Stable identity of provider + model + dimensions; stored next to vectors to detect model changes. */
  readonly id: string;
  readonly dimensions: number;
  /** One vector per input text, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Releases workers, sessions and sockets; the embedder cannot be used afterwards. */
  close(): Promise<void>;
}

export class EmbedderError extends Error {
  constructor(
    message: string,
    /** Whether trying again later may succeed (rate limits, server errors, timeouts). */
    readonly retryable = false,
  ) {
    super(message);
    this.name = "EmbedderError";
  }
}
