import { endianness } from "node:os";
import { EmbedderError } from "./embedder.js";
import type { Embedder } from "./embedder.js";
import { l2Normalize } from "./l2-normalize.js";
import { backoffDelay } from "../../platform/util/backoff.js";
import { DEFAULT_RETRY_POLICY, isRetryableStatus, retryAfterMs } from "./retry-policy.js";
import type { RetryPolicy } from "./retry-policy.js";

export interface OpenAIEmbedderConfig {
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama), a vLLM or TEI server. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Expected vector size; responses of another size fail. */
  dimensions: number;
  /** Send `dimensions` in the request (OpenAI text-embedding-3 models shorten vectors); default false, since many compatible servers reject the field. */
  requestDimensions?: boolean;
  /**
   * How vectors come back: `base64` (little-endian float32, about half the bytes of JSON numbers
   * and far cheaper to parse) or `float`. Default base64; a server that answers arrays anyway is
   * read as arrays, and one that refuses base64 (a 400 or 422 naming it) is asked for floats from
   * then on.
   */
  encoding?: "base64" | "float";
  /** Inputs per request; default 64. */
  batchSize?: number;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Injected for tests; default global fetch. */
  fetch?: typeof fetch;
  /** Injected for tests; default setTimeout-based sleep. */
  sleep?: (ms: number) => Promise<void>;
}

interface EmbeddingResponse {
  data: Array<{ index: number; embedding: number[] | string }>;
}

function isEmbeddingResponse(value: unknown): value is EmbeddingResponse {
  if (typeof value !== "object" || value === null) return false;
  const data = (value as { data?: unknown }).data;
  return (
    Array.isArray(data) &&
    data.every(
      (d: unknown) =>
        typeof d === "object" &&
        d !== null &&
        typeof (d as { index?: unknown }).index === "number" &&
        (Array.isArray((d as { embedding?: unknown }).embedding) || typeof (d as { embedding?: unknown }).embedding === "string"),
    )
  );
}

const LITTLE_ENDIAN = endianness() === "LE";

/** A base64 embedding: little-endian float32 values. */
function decodeBase64(text: string): Float32Array {
  const bytes = Buffer.from(text, "base64");
  if (bytes.length % 4 !== 0) throw new EmbedderError("embeddings endpoint returned a base64 embedding that is not float32");
  // The bytes are little-endian float32: on a little-endian host a copy of them is the array
  // (element by element with readFloatLE was 13 us a 512-dimension vector, 1.5% of the request
  // thread in bench:ingest with an instant endpoint).
  if (LITTLE_ENDIAN) return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const out = new Float32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

/** A 400 or 422 answer to a base64 request that names the encoding: the server wants floats. */
const refusesBase64 = (status: number, detail: string): boolean => (status === 400 || status === 422) && /encoding_format|base64/i.test(detail);

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly endpoint: string;
  private readonly retry: RetryPolicy;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly inflight = new Set<AbortController>();
  private closed = false;
  private encoding: "base64" | "float";

  constructor(private readonly config: OpenAIEmbedderConfig) {
    this.encoding = config.encoding ?? "base64";
    this.dimensions = config.dimensions;
    this.id = `openai:${config.model}:${config.dimensions}`;
    this.endpoint = `${config.baseUrl.replace(/\/+$/, "")}/embeddings`;
    this.retry = { ...DEFAULT_RETRY_POLICY, ...config.retry };
    this.fetchFn = config.fetch ?? fetch;
    this.sleep = config.sleep ?? defaultSleep;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const batchSize = this.config.batchSize ?? 64;
    const out: Float32Array[] = [];
    // Sequential batches: hosted APIs rate-limit per key, so parallel requests mostly buy 429s.
    for (let i = 0; i < texts.length; i += batchSize) out.push(...(await this.embedBatch(texts.slice(i, i + batchSize))));
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const controller of this.inflight) controller.abort();
  }

  private async embedBatch(input: string[]): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new EmbedderError("embedder is closed");
      const outcome = await this.request(input);
      if (outcome.ok) return outcome.vectors;
      if (!outcome.error.retryable || attempt >= this.retry.maxRetries) throw outcome.error;
      const wait = Math.min(this.retry.maxDelayMs, outcome.retryAfterMs ?? backoffDelay(attempt + 1, this.retry.baseDelayMs, this.retry.maxDelayMs));
      await this.sleep(wait);
    }
  }

  private async request(input: string[]): Promise<{ ok: true; vectors: Float32Array[] } | { ok: false; error: EmbedderError; retryAfterMs?: number }> {
    const controller = new AbortController();
    this.inflight.add(controller);
    const timer = setTimeout(() => controller.abort(), this.config.timeoutMs ?? 30_000);
    try {
      const encoding = this.encoding;
      const body: Record<string, unknown> = { model: this.config.model, input, encoding_format: encoding };
      if (this.config.requestDimensions === true) body.dimensions = this.config.dimensions;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (this.config.apiKey !== undefined) headers.authorization = `Bearer ${this.config.apiKey}`;
      const response = await this.fetchFn(this.endpoint, { method: "POST", headers, body: JSON.stringify(body), signal: controller.signal });
      if (!response.ok) {
        const detail = (await response.text().catch(() => "")).slice(0, 300);
        if (encoding === "base64" && refusesBase64(response.status, detail)) {
          this.encoding = "float";
          return await this.request(input);
        }
        const error = new EmbedderError(`embeddings endpoint answered ${response.status}: ${detail}`, isRetryableStatus(response.status));
        const after = retryAfterMs(response.headers.get("retry-after"), Date.now());
        return after === undefined ? { ok: false, error } : { ok: false, error, retryAfterMs: after };
      }
      const json: unknown = await response.json();
      return { ok: true, vectors: this.parse(json, input.length) };
    } catch (error) {
      if (error instanceof EmbedderError) return { ok: false, error };
      const aborted = controller.signal.aborted;
      const message = aborted
        ? this.closed
          ? "request aborted: embedder closed"
          : `request timed out after ${this.config.timeoutMs ?? 30_000} ms`
        : `request failed: ${error instanceof Error ? error.message : String(error)}`;
      // Network errors and timeouts are transient; an abort caused by close() is not.
      return { ok: false, error: new EmbedderError(message, !this.closed) };
    } finally {
      clearTimeout(timer);
      this.inflight.delete(controller);
    }
  }

  private parse(json: unknown, expected: number): Float32Array[] {
    if (!isEmbeddingResponse(json) || json.data.length !== expected) {
      throw new EmbedderError(`embeddings endpoint returned a malformed response (expected ${expected} embeddings)`);
    }
    const vectors: Array<Float32Array | undefined> = Array.from({ length: expected }, () => undefined);
    for (const item of json.data) {
      if (!Number.isInteger(item.index) || item.index < 0 || item.index >= expected)
        throw new EmbedderError(`embeddings endpoint returned index ${item.index} out of range`);
      const embedding = typeof item.embedding === "string" ? decodeBase64(item.embedding) : Float32Array.from(item.embedding);
      if (embedding.length !== this.dimensions) {
        throw new EmbedderError(`embeddings endpoint returned ${embedding.length} dimensions, configured ${this.dimensions}`);
      }
      vectors[item.index] = l2Normalize(embedding);
    }
    return vectors.map((v) => {
      if (v === undefined) throw new EmbedderError("embeddings endpoint returned duplicate or missing indexes");
      return v;
    });
  }
}

export function createOpenAIEmbedder(config: OpenAIEmbedderConfig): Embedder {
  if (!/^https?:\/\//.test(config.baseUrl)) throw new EmbedderError(`baseUrl must be an http(s) URL, got ${config.baseUrl}`);
  if (!Number.isInteger(config.dimensions) || config.dimensions < 1) throw new EmbedderError(`dimensions must be a positive integer`);
  return new OpenAIEmbedder(config);
}
