/** A dense text embedding provider. Vectors are L2-normalised so cosine equals dot product. */
export interface Embedder {
  /** Stable identity of provider + model + dimensions; stored next to vectors to detect model changes. */
  readonly id: string;
  readonly dimensions: number;
  /**
   * One vector per input text, in input order. `urgent` marks a caller that waits with a user
   * (a query): a provider with its own queue serves it before batches (the local embedder has a
   * thread for them); the others treat every call alike.
   */
  embed(texts: string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** Releases workers, sessions and sockets; the embedder cannot be used afterwards. */
  close(): Promise<void>;
}

export interface EmbedOptions {
  readonly urgent?: boolean;
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
