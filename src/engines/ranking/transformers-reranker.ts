import type { ScoresResult } from "./rerank-endpoint.js";

// A cross-encoder run in process with @huggingface/transformers (onnxruntime-node on CPU), loaded
// from a local folder (`<localModelPath>/<model>/{config.json,tokenizer.json,onnx/model.onnx}`),
// e.g. a sequence classification export of ms-marco-MiniLM-L-6-v2 or bge-reranker-base. Each
// question-passage pair is one input; its relevance is the model's logit (with several labels,
// the last one's: two-class rerankers put "relevant" last).

export interface TransformersRerankerConfig {
  /** Folder name under `localModelPath`, or a hub-style id when remote models are allowed. */
  readonly model: string;
  readonly localModelPath?: string;
  /** Off by default: the service must not reach model hubs unless told to. */
  readonly allowRemoteModels?: boolean;
  /** Pairs per forward pass; default 16. */
  readonly batchSize?: number;
}

export interface LoadedReranker {
  score(question: string, passages: readonly string[]): Promise<ScoresResult>;
  close(): Promise<void>;
}

interface Tensor {
  readonly data: ArrayLike<number>;
  readonly dims: readonly number[];
}
type Tokenizer = (texts: string[], options: { text_pair: string[]; padding: boolean; truncation: boolean; max_length: number }) => Record<string, unknown>;
interface Classifier {
  (inputs: Record<string, unknown>): Promise<{ logits: Tensor }>;
  dispose(): Promise<unknown>;
}

const MAX_TOKENS = 512;

export async function loadTransformersReranker(config: TransformersRerankerConfig): Promise<LoadedReranker> {
  // Imported lazily: it loads onnxruntime-node, which the other providers do not need.
  const { env, AutoTokenizer, AutoModelForSequenceClassification } = await import("@huggingface/transformers");
  env.allowRemoteModels = config.allowRemoteModels ?? false;
  env.allowLocalModels = true;
  if (config.localModelPath !== undefined) env.localModelPath = config.localModelPath.endsWith("/") ? config.localModelPath : `${config.localModelPath}/`;
  let tokenizer: Tokenizer;
  let model: Classifier;
  try {
    tokenizer = await AutoTokenizer.from_pretrained(config.model);
    model = await AutoModelForSequenceClassification.from_pretrained(config.model, { dtype: "fp32", device: "cpu" });
  } catch (error) {
    const where = config.localModelPath === undefined ? "" : ` under ${config.localModelPath}`;
    throw new Error(`could not load reranker model ${config.model}${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const batchSize = config.batchSize ?? 16;
  return {
    async score(question, passages) {
      try {
        const scores: number[] = [];
        for (let i = 0; i < passages.length; i += batchSize) {
          const batch = passages.slice(i, i + batchSize);
          const inputs = tokenizer(
            batch.map(() => question),
            { text_pair: batch, padding: true, truncation: true, max_length: MAX_TOKENS },
          );
          const { logits } = await model(inputs);
          const [rows = 0, labels = 0] = logits.dims;
          if (rows !== batch.length || labels < 1) return { ok: false, reason: "unexpected_output_shape" };
          for (let r = 0; r < rows; r++) scores.push(logits.data[r * labels + labels - 1]!);
        }
        return { ok: true, scores };
      } catch (error) {
        return { ok: false, reason: `model_error: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
    async close() {
      await model.dispose();
    },
  };
}
