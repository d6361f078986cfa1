// Writes a tiny BERT-shaped feature-extraction model to disk for the transformers provider test:
// a WordPiece tokenizer.json and an ONNX graph with one Gather node (token embedding lookup) that
// outputs `last_hidden_state`. The ONNX protobuf is encoded by hand (field numbers from onnx.proto).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

class ProtoWriter {
  private bytes: number[] = [];

  private varint(value: number | bigint): void {
    let v = BigInt(value);
    while (v > 0x7fn) {
      this.bytes.push(Number((v & 0x7fn) | 0x80n));
      v >>= 7n;
    }
    this.bytes.push(Number(v));
  }

  int(field: number, value: number): this {
    this.varint((field << 3) | 0);
    this.varint(value);
    return this;
  }

  bytesField(field: number, data: Uint8Array): this {
    this.varint((field << 3) | 2);
    this.varint(data.length);
    this.bytes.push(...data);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytesField(field, new TextEncoder().encode(value));
  }

  message(field: number, inner: ProtoWriter): this {
    return this.bytesField(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const FLOAT = 1;
const INT64 = 7;

function valueInfo(name: string, elemType: number, dims: Array<string | number>): ProtoWriter {
  const shape = new ProtoWriter();
  for (const d of dims) shape.message(1, typeof d === "number" ? new ProtoWriter().int(1, d) : new ProtoWriter().string(2, d));
  const tensorType = new ProtoWriter().int(1, elemType).message(2, shape);
  return new ProtoWriter().string(1, name).message(2, new ProtoWriter().message(1, tensorType));
}

function onnxGatherModel(table: number[][]): Uint8Array {
  const vocab = table.length;
  const dim = table[0]?.length ?? 0;
  const raw = new Uint8Array(Float32Array.from(table.flat()).buffer);
  const initializer = new ProtoWriter().int(1, vocab).int(1, dim).int(2, FLOAT).string(8, "embeddings").bytesField(9, raw);
  const node = new ProtoWriter().string(1, "embeddings").string(1, "input_ids").string(2, "last_hidden_state").string(3, "lookup").string(4, "Gather");
  const graph = new ProtoWriter()
    .message(1, node)
    .string(2, "tiny-bert")
    .message(5, initializer)
    .message(11, valueInfo("input_ids", INT64, ["batch", "sequence"]))
    .message(11, valueInfo("attention_mask", INT64, ["batch", "sequence"]))
    .message(12, valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", dim]));
  return new ProtoWriter().int(1, 8).string(2, "context-store-tests").message(7, graph).message(8, new ProtoWriter().string(1, "").int(2, 13)).finish();
}

/**
 * A cross-encoder's graph: each token has one weight (Gather), summed over the sequence
 * (ReduceSum over axis 1) into one `logits` value per query-document pair.
 */
function onnxTokenWeightModel(weights: number[]): Uint8Array {
  const raw = new Uint8Array(Float32Array.from(weights).buffer);
  const table = new ProtoWriter().int(1, weights.length).int(1, 1).int(2, FLOAT).string(8, "token_weights").bytesField(9, raw);
  const axes = new ProtoWriter()
    .int(1, 1)
    .int(2, INT64)
    .string(8, "axes")
    .bytesField(9, new Uint8Array(BigInt64Array.from([1n]).buffer));
  const gather = new ProtoWriter().string(1, "token_weights").string(1, "input_ids").string(2, "token_scores").string(3, "lookup").string(4, "Gather");
  const keepdims = new ProtoWriter().string(1, "keepdims").int(3, 0).int(20, 2);
  const sum = new ProtoWriter().string(1, "token_scores").string(1, "axes").string(2, "logits").string(3, "sum").string(4, "ReduceSum").message(5, keepdims);
  const graph = new ProtoWriter()
    .message(1, gather)
    .message(1, sum)
    .string(2, "tiny-cross-encoder")
    .message(5, table)
    .message(5, axes)
    .message(11, valueInfo("input_ids", INT64, ["batch", "sequence"]))
    .message(11, valueInfo("attention_mask", INT64, ["batch", "sequence"]))
    .message(11, valueInfo("token_type_ids", INT64, ["batch", "sequence"]))
    .message(12, valueInfo("logits", FLOAT, ["batch", 1]));
  return new ProtoWriter().int(1, 8).string(2, "context-store-tests").message(7, graph).message(8, new ProtoWriter().string(1, "").int(2, 13)).finish();
}

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"];

/**
 * Each word gets a hand-made 4-d vector: "cat"/"kitten"/"feline" point one way, "car"/"truck"/
 * "engine" another, so mean-pooled sentence vectors have a known similarity structure. Special
 * tokens are zero vectors and do not move the mean direction.
 */
const WORDS: Record<string, number[]> = {
  cat: [1, 0.1, 0, 0],
  kitten: [0.9, 0.2, 0, 0],
  feline: [0.95, 0, 0.1, 0],
  car: [0, 0, 1, 0.1],
  truck: [0, 0.1, 0.9, 0.2],
  engine: [0.1, 0, 1, 0],
  the: [0.05, 0.05, 0.05, 0.05],
  a: [0.05, 0.05, 0.05, 0.05],
};

export const TINY_MODEL_DIMENSIONS = 4;

/** Writes `<root>/<name>/{config.json,tokenizer.json,tokenizer_config.json,onnx/model.onnx}`. */
export function writeTinyBertModel(root: string, name: string): void {
  const dir = join(root, name);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  const tokens = [...SPECIAL, ...Object.keys(WORDS)];
  const table = tokens.map((t) => WORDS[t] ?? [0, 0, 0, 0]);
  writeFileSync(join(dir, "onnx", "model.onnx"), onnxGatherModel(table));
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({ model_type: "bert", architectures: ["BertModel"], hidden_size: TINY_MODEL_DIMENSIONS, vocab_size: tokens.length }),
  );
  writeTokenizer(dir, tokens);
}

/**
 * Writes a tiny cross-encoder (a sequence classification model with one logit): a pair of
 * texts scores the sum of its words' `weights` (others 0), so a document holding weighted
 * words ranks above one that does not.
 */
export function writeTinyCrossEncoder(root: string, name: string, weights: Record<string, number>): void {
  const dir = join(root, name);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  const tokens = [...SPECIAL, ...new Set([...Object.keys(WORDS), ...Object.keys(weights)])];
  writeFileSync(join(dir, "onnx", "model.onnx"), onnxTokenWeightModel(tokens.map((t) => weights[t] ?? 0)));
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({
      model_type: "bert",
      architectures: ["BertForSequenceClassification"],
      hidden_size: 1,
      vocab_size: tokens.length,
      id2label: { "0": "LABEL_0" },
      label2id: { LABEL_0: 0 },
    }),
  );
  writeTokenizer(dir, tokens);
}

function writeTokenizer(dir: string, tokens: readonly string[]): void {
  const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "BertTokenizer",
      do_lower_case: true,
      model_max_length: 128,
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      cls_token: "[CLS]",
      sep_token: "[SEP]",
    }),
  );
  const special = (content: string) => ({ id: vocab[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  writeFileSync(
    join(dir, "tokenizer.json"),
    JSON.stringify({
      version: "1.0",
      truncation: null,
      padding: null,
      added_tokens: SPECIAL.map(special),
      normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: "BertPreTokenizer" },
      post_processor: {
        type: "TemplateProcessing",
        single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
        pair: [
          { SpecialToken: { id: "[CLS]", type_id: 0 } },
          { Sequence: { id: "A", type_id: 0 } },
          { SpecialToken: { id: "[SEP]", type_id: 0 } },
          { Sequence: { id: "B", type_id: 1 } },
          { SpecialToken: { id: "[SEP]", type_id: 1 } },
        ],
        special_tokens: {
          "[CLS]": { id: "[CLS]", ids: [vocab["[CLS]"]], tokens: ["[CLS]"] },
          "[SEP]": { id: "[SEP]", ids: [vocab["[SEP]"]], tokens: ["[SEP]"] },
        },
      },
      decoder: { type: "WordPiece", prefix: "##", cleanup: true },
      model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab },
    }),
  );
}
