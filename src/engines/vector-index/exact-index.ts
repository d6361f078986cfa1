import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { checkVector, toKey, VectorIndexError } from "./vector-index.js";
import type { VectorIndex, VectorKey, VectorMatch } from "./vector-index.js";

const MAGIC = 0x43535845; // "CSXE"
const VERSION = 1;
const HEADER_BYTES = 16;

/**
 * Exact cosine search by scanning every vector. For small sets (a few thousand vectors: under a
 * millisecond per query at 512 dims) it is exact, has no build cost and filters for free.
 */
export class ExactIndex implements VectorIndex {
  private vectors = new Map<bigint, Float32Array>();

  constructor(readonly dimensions: number) {
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new VectorIndexError("dimensions must be a positive integer");
  }

  size(): number {
    return this.vectors.size;
  }

  has(key: VectorKey): boolean {
    return this.vectors.has(toKey(key));
  }

  add(key: VectorKey, vector: Float32Array): void {
    checkVector(vector, this.dimensions);
    this.vectors.set(toKey(key), normalized(vector));
  }

  remove(key: VectorKey): boolean {
    return this.vectors.delete(toKey(key));
  }

  search(vector: Float32Array, k: number, filter?: (key: bigint) => boolean): VectorMatch[] {
    checkVector(vector, this.dimensions);
    if (k <= 0) return [];
    const query = normalized(vector);
    // Top-k kept sorted best-first; insertion is cheap because k is small next to the set size.
    const top: VectorMatch[] = [];
    for (const [key, stored] of this.vectors) {
      if (filter !== undefined && !filter(key)) continue;
      let dot = 0;
      for (let i = 0; i < query.length; i++) dot += (query[i] ?? 0) * (stored[i] ?? 0);
      if (top.length === k && dot <= (top[k - 1]?.score ?? -Infinity)) continue;
      let at = top.length;
      while (at > 0 && (top[at - 1]?.score ?? Infinity) < dot) at--;
      top.splice(at, 0, { key, score: dot });
      if (top.length > k) top.pop();
    }
    return top;
  }

  /** Format: magic, version, dimensions, count (u32 each), then per entry a u64 key and f32 values. */
  save(path: string): void {
    const entryBytes = 8 + this.dimensions * 4;
    const buffer = Buffer.alloc(HEADER_BYTES + this.vectors.size * entryBytes);
    buffer.writeUInt32LE(MAGIC, 0);
    buffer.writeUInt32LE(VERSION, 4);
    buffer.writeUInt32LE(this.dimensions, 8);
    buffer.writeUInt32LE(this.vectors.size, 12);
    let offset = HEADER_BYTES;
    for (const [key, vector] of this.vectors) {
      buffer.writeBigUInt64LE(key, offset);
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(buffer, offset + 8);
      offset += entryBytes;
    }
    const temp = `${path}.tmp-${process.pid}`;
    writeFileSync(temp, buffer);
    renameSync(temp, path);
  }

  load(path: string): void {
    const buffer = readFileSync(path);
    if (buffer.length < HEADER_BYTES || buffer.readUInt32LE(0) !== MAGIC || buffer.readUInt32LE(4) !== VERSION) {
      throw new VectorIndexError(`${path} is not an exact vector index file`);
    }
    const dimensions = buffer.readUInt32LE(8);
    const count = buffer.readUInt32LE(12);
    if (dimensions !== this.dimensions) throw new VectorIndexError(`index file ${path} has ${dimensions} dimensions, expected ${this.dimensions}`);
    const entryBytes = 8 + dimensions * 4;
    if (buffer.length !== HEADER_BYTES + count * entryBytes) throw new VectorIndexError(`${path} is truncated`);
    const vectors = new Map<bigint, Float32Array>();
    for (let i = 0, offset = HEADER_BYTES; i < count; i++, offset += entryBytes) {
      const values = new Float32Array(dimensions);
      Buffer.from(values.buffer).set(buffer.subarray(offset + 8, offset + entryBytes));
      vectors.set(buffer.readBigUInt64LE(offset), values);
    }
    this.vectors = vectors;
  }
}

function normalized(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const out = Float32Array.from(vector);
  if (sum === 0) return out;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * inv;
  return out;
}
