// ANN index figures: `npx tsx bench/vector-index.ts [count] [dims]` (default 100k x 512).
// Builds the usearch HNSW index incrementally (one add per vector, as chunks land) and in bulk
// with 2 threads, then measures single-query kNN latency (k=10) and recall@10 against exact search.
import { ExactIndex } from "../src/engines/vector-index/exact-index.js";
import { UsearchIndex } from "../src/engines/vector-index/usearch-index.js";

const count = Number(process.argv[2] ?? 100_000);
const dims = Number(process.argv[3] ?? 512);
const queries = 200;

// "Random-ish": vectors drawn around 100 cluster centres, as real embeddings cluster by topic.
let seed = 12345;
const rand = (): number => {
  seed = (seed * 1664525 + 1013904223) % 4294967296;
  return seed / 4294967296 - 0.5;
};
const centres = Array.from({ length: 100 }, () => Float32Array.from({ length: dims }, rand));
const sample = (): Float32Array => {
  const c = centres[Math.floor((rand() + 0.5) * centres.length) % centres.length] ?? new Float32Array(dims);
  return Float32Array.from(c, (v) => v + rand() * 0.6);
};
const vectors = Array.from({ length: count }, sample);
const queryVectors = Array.from({ length: queries }, sample);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

let started = performance.now();
const incremental = new UsearchIndex({ dimensions: dims });
vectors.forEach((v, i) => incremental.add(i, v));
const incrementalSeconds = (performance.now() - started) / 1000;

started = performance.now();
const bulk = new UsearchIndex({ dimensions: dims });
bulk.addMany(
  vectors.map((_, i) => i),
  vectors,
  2,
);
const bulkSeconds = (performance.now() - started) / 1000;

const exact = new ExactIndex(dims);
vectors.forEach((v, i) => exact.add(i, v));

for (const q of queryVectors.slice(0, 20)) incremental.search(q, 10);
const latencies: number[] = [];
let hits = 0;
for (const q of queryVectors) {
  const t = performance.now();
  const found = incremental.search(q, 10);
  latencies.push(performance.now() - t);
  const truth = new Set(exact.search(q, 10).map((m) => m.key));
  hits += found.filter((m) => truth.has(m.key)).length;
}
latencies.sort((a, b) => a - b);

const exactLatencies: number[] = [];
for (const q of queryVectors.slice(0, 20)) {
  const t = performance.now();
  exact.search(q, 10);
  exactLatencies.push(performance.now() - t);
}
exactLatencies.sort((a, b) => a - b);

console.log(`vectors: ${count} x ${dims}`);
console.log(`usearch HNSW build, incremental single adds: ${incrementalSeconds.toFixed(1)} s; bulk addMany (2 threads): ${bulkSeconds.toFixed(1)} s`);
console.log(
  `usearch kNN k=10: p50 ${percentile(latencies, 0.5).toFixed(3)} ms, p95 ${percentile(latencies, 0.95).toFixed(3)} ms, recall@10 ${(hits / (queries * 10)).toFixed(3)}`,
);
console.log(`exact scan kNN k=10: p50 ${percentile(exactLatencies, 0.5).toFixed(1)} ms`);
console.log(`rss: ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
