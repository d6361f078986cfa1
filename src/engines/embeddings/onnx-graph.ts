import protobuf from "protobufjs";

/**
 * The part of ONNX's `onnx.proto` (field numbers as published by the ONNX project) that a
 * model built in code needs: a graph of nodes, its weights as raw little-endian initializers,
 * and typed inputs and outputs. Encoded with protobufjs; onnxruntime parses the bytes.
 */
const ONNX = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: { type: "int64", id: 1 },
            producerName: { type: "string", id: 2 },
            graph: { type: "GraphProto", id: 7 },
            opsetImport: { rule: "repeated", type: "OperatorSetIdProto", id: 8 },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: "string", id: 1 }, version: { type: "int64", id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: "repeated", type: "NodeProto", id: 1 },
            name: { type: "string", id: 2 },
            initializer: { rule: "repeated", type: "TensorProto", id: 5 },
            input: { rule: "repeated", type: "ValueInfoProto", id: 11 },
            output: { rule: "repeated", type: "ValueInfoProto", id: 12 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: "repeated", type: "string", id: 1 },
            output: { rule: "repeated", type: "string", id: 2 },
            name: { type: "string", id: 3 },
            opType: { type: "string", id: 4 },
            attribute: { rule: "repeated", type: "AttributeProto", id: 5 },
            domain: { type: "string", id: 7 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: "string", id: 1 },
            f: { type: "float", id: 2 },
            i: { type: "int64", id: 3 },
            ints: { rule: "repeated", type: "int64", id: 8 },
            type: { type: "int32", id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: "repeated", type: "int64", id: 1 },
            dataType: { type: "int32", id: 2 },
            name: { type: "string", id: 8 },
            rawData: { type: "bytes", id: 9 },
          },
        },
        ValueInfoProto: { fields: { name: { type: "string", id: 1 }, type: { type: "TypeProto", id: 2 } } },
        TypeProto: { fields: { tensorType: { type: "TensorTypeProto", id: 1 } } },
        TensorTypeProto: { fields: { elemType: { type: "int32", id: 1 }, shape: { type: "TensorShapeProto", id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: "repeated", type: "Dimension", id: 1 } } },
        Dimension: { fields: { dimValue: { type: "int64", id: 1 }, dimParam: { type: "string", id: 2 } } },
      },
    },
  },
});
const MODEL = ONNX.lookupType("onnx.ModelProto");

/** ONNX element types used here. */
export const FLOAT = 1;
const INT8 = 3;
export const INT64 = 7;
const CONTRIB_DOMAIN = "com.microsoft";
/** ONNX attribute kinds. */
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

/** An attribute value: an integer, a float (written with a fraction or marked by `float`), or a list of integers. */
export type AttrValue = number | readonly number[] | { float: number };

interface Node {
  opType: string;
  domain?: string;
  input: string[];
  output: string[];
  name: string;
  attribute: Array<Record<string, unknown>>;
}

/** Dimensions of an input or output: numbers are fixed, strings are named dynamic axes. */
type Dims = ReadonlyArray<number | string>;

/**
 * Builds an ONNX graph in code, one operator at a time; each call returns the name of the value
 * it produces, so a model reads as the expression it computes. Opset 17.
 */
export class OnnxGraph {
  private readonly nodes: Node[] = [];
  private readonly initializers: Array<Record<string, unknown>> = [];
  private readonly inputs: Array<Record<string, unknown>> = [];
  private seq = 0;
  private readonly domains = new Set<string>();

  private fresh(prefix: string): string {
    this.seq += 1;
    return `${prefix}_${this.seq}`;
  }

  input(name: string, elemType: number, dims: Dims): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  /** A float32 weight of the given shape. */
  weight(data: Float32Array, dims: readonly number[]): string {
    const name = this.fresh("w");
    this.initializers.push({ name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    return name;
  }

  /** An int8 weight of the given shape (quantized). */
  int8Weight(data: Int8Array, dims: readonly number[]): string {
    const name = this.fresh("q");
    this.initializers.push({ name, dims, dataType: INT8, rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
    return name;
  }

  /** A scalar float32 constant. */
  scalar(value: number): string {
    return this.weight(Float32Array.of(value), []);
  }

  /** A 1-D int64 constant (shapes, axes, split sizes). */
  ints(values: readonly number[]): string {
    const name = this.fresh("i");
    const data = BigInt64Array.from(values.map(BigInt));
    this.initializers.push({ name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) });
    return name;
  }

  op(opType: string, inputs: readonly string[], attrs: Record<string, AttrValue> = {}, outputs = 1): string[] {
    const name = this.fresh(opType);
    const output = Array.from({ length: outputs }, (_, i) => `${name}:${i}`);
    this.nodes.push({ opType, input: [...inputs], output, name, attribute: Object.entries(attrs).map(([key, value]) => attribute(key, value)) });
    return output;
  }

  /** One operator of onnxruntime's own `com.microsoft` domain (version 1), with one output. */
  applyContrib(opType: string, inputs: readonly string[]): string {
    const name = this.fresh(opType);
    this.domains.add(CONTRIB_DOMAIN);
    this.nodes.push({ opType, domain: CONTRIB_DOMAIN, input: [...inputs], output: [`${name}:0`], name, attribute: [] });
    return `${name}:0`;
  }

  /** One operator with one output. */
  apply(opType: string, inputs: readonly string[], attrs: Record<string, AttrValue> = {}): string {
    return this.op(opType, inputs, attrs)[0]!;
  }

  /** The serialized model with `output` as its one float32 output. */
  encode(output: string, outputDims: Dims): Uint8Array {
    const graph = {
      name: "model",
      node: [...this.nodes, { opType: "Identity", input: [output], output: ["output"], name: "output", attribute: [] }],
      initializer: this.initializers,
      input: this.inputs,
      output: [valueInfo("output", FLOAT, outputDims)],
    };
    return MODEL.encode(
      MODEL.fromObject({
        irVersion: 8,
        producerName: "context-store",
        opsetImport: [{ domain: "", version: 17 }, ...[...this.domains].map((domain) => ({ domain, version: 1 }))],
        graph,
      }),
    ).finish();
  }
}

function attribute(name: string, value: AttrValue): Record<string, unknown> {
  if (typeof value === "object" && "float" in value) return { name, type: ATTR_FLOAT, f: value.float };
  if (typeof value === "number") return { name, type: ATTR_INT, i: value };
  return { name, type: ATTR_INTS, ints: [...value] };
}

function valueInfo(name: string, elemType: number, dims: Dims): Record<string, unknown> {
  const dim = dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}
