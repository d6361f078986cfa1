/** Deterministic vectors of `dims` values in [-0.5, 0.5): a seeded LCG, so failures reproduce. */
export function randomVectors(count: number, seed: number, dims: number): Float32Array[] {
  let x = seed;
  const next = (): number => {
    x = (x * 1664525 + 1013904223) % 4294967296;
    return x / 4294967296 - 0.5;
  };
  return Array.from({ length: count }, () => Float32Array.from({ length: dims }, next));
}
