// Query latency at scale: `npm run bench:query` (embedded) or with DATABASE_URL (PostgreSQL).
// Writes (bench/bench-store.ts) 100,000 knowledge chunks and 10,000 memory chunks of LoCoMo English
// through the store layer, then times POST /query (in-process, app.server.inject) with LoCoMo
// questions and prints p50 / p95 of the server-side latency (meta.latency_ms: parse to response,
// query embedding included).
// Options: --chunks N (default 100000), --runs N (default 100), --distinct-vectors N (default 1000).
// BENCH_DATA_DIR=<dir> (embedded only) keeps the written store there and reuses it on the next run.
import { option, percentile } from "./bench-utils.js";
import { benchText, openBenchStore } from "./bench-store.js";

const RUNS = option("runs", 100);
const text = benchText();
const pick = text.pick;
const questions = text.questions;
const appStarted = performance.now();
const { app, db, backend, key, chunks, reused } = await openBenchStore({
  chunks: option("chunks", 100_000),
  distinctVectors: option("distinct-vectors", 1_000),
  text,
});
if (reused) {
  // What a restart costs: the search indexes of the stored scopes load in the background at start.
  const scopes = await app.indexesWarm;
  console.log(`search indexes loaded at start (WARM_UP_INDEXES): ${scopes.length} scopes in ${((performance.now() - appStarted) / 1000).toFixed(1)} s`);
}
const written = chunks + chunks / 10;

const shapes: Array<{ name: string; body: Record<string, unknown> }> = [
  { name: "fast hybrid (knowledge)", body: {} },
  { name: "thinking hybrid (knowledge)", body: { mode: "thinking" } },
  { name: "text (BM25, or)", body: { query_by: "text" } },
  { name: "fast hybrid, type all", body: { type: "all" } },
];
const query = async (body: Record<string, unknown>): Promise<number> => {
  const res = await app.server.inject({
    method: "POST",
    url: "/query",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify({ database: "bench", graph_context: false, ...body }),
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json<{ meta: { latency_ms: number } }>().meta.latency_ms;
};
for (let i = 0; i < 20; i++) await query({ query: pick(questions) }); // warm the caches, the embedder and the index
console.log(
  `backend: ${backend}; ${written} chunks; ${RUNS} LoCoMo questions per shape; server-side latency (meta.latency_ms); load: ${(await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
for (const s of shapes) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await query({ query: pick(questions), ...s.body }));
  times.sort((a, b) => a - b);
  console.log(`${s.name.padEnd(30)} p50 ${percentile(times, 0.5).toFixed(1).padStart(7)} ms   p95 ${percentile(times, 0.95).toFixed(1).padStart(7)} ms`);
}
await app.close();
await db.drop();
