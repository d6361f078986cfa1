import { EmbedderError } from "./embedder.js";
import type { Embedder } from "./embedder.js";
import { l2Normalize } from "./l2-normalize.js";

export interface TransformersEmbedderConfig {
  /** Hub-style model id (`Xenova/all-MiniLM-L6-v2`) or a folder name under `localModelPath`. */
  model: string;
  /** Folder holding `<model>/config.json`, `tokenizer.json`, `onnx/model.onnx`. */
  localModelPath?: string;
  /** Off by default: the service must not reach model hubs unless told to. */
  allowRemoteModels?: boolean;
  cacheDir?: string;
  /** Expected vector size; discovered with a probe when omitted. */
  dimensions?: number;
  /** Sentence-transformers models use mean pooling; some (bge) use the CLS token. Default mean. */
  pooling?: "mean" | "cls";
  /** ONNX weight variant, e.g. "fp32" (model.onnx) or "q8" (model_quantized.onnx). Default fp32. */
  dtype?: "fp32" | "fp16" | "q8" | "int8" | "uint8" | "q4";
  /** Texts per forward pass; default 16. */
  batchSize?: number;
}

interface FeatureTensor {
  data: ArrayLike<number>;
  dims: number[];
}
type Extractor = ((texts: string[], options: { pooling: "mean" | "cls"; normalize: boolean }) => Promise<FeatureTensor>) & { dispose(): Promise<unknown> };

class TransformersEmbedder implements Embedder {
  readonly id: string;

  constructor(
    private readonly extractor: Extractor,
    readonly dimensions: number,
    private readonly config: TransformersEmbedderConfig,
  ) {
    this.id = `transformers:${config.model}:${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const batchSize = this.config.batchSize ?? 16;
    for (let i = 0; i < texts.length; i += batchSize) {
      const tensor = await this.extractor(texts.slice(i, i + batchSize), { pooling: this.config.pooling ?? "mean", normalize: true });
      const [rows = 0, width = 0] = tensor.dims;
      if (width !== this.dimensions) throw new EmbedderError(`model ${this.config.model} produced ${width} dimensions, expected ${this.dimensions}`);
      for (let r = 0; r < rows; r++) out.push(l2Normalize(Float32Array.from(Array.prototype.slice.call(tensor.data, r * width, (r + 1) * width) as number[])));
    }
    return out;
  }

  async close(): Promise<void> {
    await this.extractor.dispose();
  }
}

/**
 * Loads a feature-extraction model with @huggingface/transformers (onnxruntime-node on CPU). The
 * library's `env` is process-wide, so the remote/local settings apply to every later load too.
 */
export async function createTransformersEmbedder(config: TransformersEmbedderConfig): Promise<Embedder> {
  // Imported lazily: it loads onnxruntime-node, which the other providers do not need.
  const transformers = await import("@huggingface/transformers");
  const { env, pipeline } = transformers;
  env.allowRemoteModels = config.allowRemoteModels ?? false;
  env.allowLocalModels = true;
  if (config.localModelPath !== undefined) env.localModelPath = config.localModelPath.endsWith("/") ? config.localModelPath : `${config.localModelPath}/`;
  if (config.cacheDir !== undefined) env.cacheDir = config.cacheDir;
  let extractor: Extractor;
  try {
    const loaded: unknown = await pipeline("feature-extraction", config.model, { dtype: config.dtype ?? "fp32", device: "cpu" });
    extractor = loaded as Extractor;
  } catch (error) {
    const where = config.localModelPath === undefined ? "" : ` under ${config.localModelPath}`;
    throw new EmbedderError(`could not load model ${config.model}${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let dimensions = config.dimensions;
  if (dimensions === undefined) {
    const probe = await extractor(["dimension probe"], { pooling: config.pooling ?? "mean", normalize: true });
    dimensions = probe.dims[1] ?? 0;
  }
  return new TransformersEmbedder(extractor, dimensions, config);
}
