/** Keys are unsigned 64-bit integers (chunk row ids); numbers must be safe non-negative integers. */
export type VectorKey = bigint | number;

export interface VectorMatch {
  key: bigint;
  /** Cosine similarity in [-1, 1]; higher is closer. */
  score: number;
}

/** Cosine k-nearest-neighbour index over fixed-size vectors. Adding an existing key replaces it. */
export interface VectorIndex {
  readonly dimensions: number;
  size(): number;
  has(key: VectorKey): boolean;
  add(key: VectorKey, vector: Float32Array): void;
  /** Returns whether the key was present. */
  remove(key: VectorKey): boolean;
  /** Best `k` matches, best first; `filter` keeps only keys it accepts (e.g. one collection). */
  search(vector: Float32Array, k: number, filter?: (key: bigint) => boolean): VectorMatch[];
  /** Writes the whole index to one file (written to a temp file, then renamed into place). */
  save(path: string): void;
  /** Replaces the contents with a file written by `save` of the same index type. */
  load(path: string): void;
}

export class VectorIndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VectorIndexError";
  }
}

export function toKey(key: VectorKey): bigint {
  if (typeof key === "bigint") {
    if (key < 0n || key > 0xffff_ffff_ffff_ffffn) throw new VectorIndexError(`key ${key} is outside the unsigned 64-bit range`);
    return key;
  }
  if (!Number.isSafeInteger(key) || key < 0) throw new VectorIndexError(`key ${key} must be a non-negative safe integer`);
  return BigInt(key);
}

export function checkVector(vector: Float32Array, dimensions: number): void {
  if (vector.length !== dimensions) throw new VectorIndexError(`vector has ${vector.length} dimensions, index has ${dimensions}`);
}
