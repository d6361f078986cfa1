// Query latency at scale: `npm run bench:query` (embedded) or with DATABASE_URL (PostgreSQL).
// Writes (bench/bench-store.ts) 100,000 knowledge chunks and 10,000 memory chunks of LoCoMo English
// through the store layer, then times POST /query (in-process, app.server.inject) with LoCoMo
// questions and prints p50 / p95 of the server-side latency (meta.latency_ms: parse to response,
// query embedding included).
// Options: --chunks N (default 100000), --runs N (default 100), --distinct-vectors N (default 1000).
// --during-ingest: after the shapes, fast hybrid again while the same instance ingests app items
//   at full speed (its job workers started, a backlog of items kept queued) for --busy-seconds S
//   (default 20), beside its idle figure: S/2 seconds before the ingestion and S/2 after it, so a
//   drift of the machine's speed during the run weighs on both sides. BENCH_CPU_PROFILE=<file>
//   writes a CPU profile of the busy window.
// --throughput S: S seconds of fast hybrid queries from 8 concurrent callers on the idle instance:
//   queries per second, and the process's CPU per query.
// BENCH_DATA_DIR=<dir> keeps the written store there and reuses it on the next run (with
// DATABASE_URL, in a PostgreSQL database named bench_<folder name>).
import { cpus } from "node:os";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { cpuProfileWindow, option, percentile } from "./bench-utils.js";
import { benchText, openBenchStore } from "./bench-store.js";
import { benchItems } from "./ingest-items.js";

const RUNS = option("runs", 100);
const text = benchText();
const pick = text.pick;
const questions = text.questions;
const appStarted = performance.now();
// The service's own tuning settings pass through (the rest of the configuration is the benchmark's).
const TUNING = ["EXTRACTION_WORKERS", "EMBEDDING_WORKERS", "EMBEDDING_QUERY_WORKERS", "INDEXING_NICE", "INGEST_WORKERS", "WORKERS"];
const { app, db, backend, key, chunks, reused } = await openBenchStore({
  chunks: option("chunks", 100_000),
  distinctVectors: option("distinct-vectors", 1_000),
  text,
  env: Object.fromEntries(TUNING.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
});
if (reused) {
  // What a restart costs: the search indexes of the stored scopes load in the background at start.
  const scopes = await app.indexesWarm;
  console.log(`search indexes loaded at start (WARM_UP_INDEXES): ${scopes.length} scopes in ${((performance.now() - appStarted) / 1000).toFixed(1)} s`);
}
// A reused store holds what it was written with (--chunks of that run), not this run's --chunks.
const written = reused
  ? Number(
      (
        await app.store.reader
          .selectFrom("context_chunks")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    )
  : chunks + chunks / 10;

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
// Warm the caches, the embedder and every index the shapes read (`type all` reads an index of its
// own: on PostgreSQL just restarted, its first queries would otherwise land in its timed 100).
for (const s of shapes) for (let i = 0; i < 10; i++) await query({ query: pick(questions), ...s.body });
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
console.log(
  `resident memory after the shapes: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB (JS heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB); ` +
    `the benchmark and the service share this process`,
);
const ms = (sorted: readonly number[], p: number): string => `${percentile(sorted, p).toFixed(1)} ms`;

const throughputSeconds = option("throughput", 0);
if (throughputSeconds > 0) {
  const callers = 8;
  const until = performance.now() + throughputSeconds * 1000;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        await query({ query: pick(questions) });
        done++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `fast hybrid throughput: ${callers} concurrent callers for ${seconds.toFixed(1)} s: ${(done / seconds).toFixed(1)} queries/s; ` +
      `process CPU ${((cpu.user + cpu.system) / 1000 / done).toFixed(1)} ms per query (${cpus().length} cores)`,
  );
}

/** Fast hybrid queries one after another for `seconds`: their latencies, sorted. */
const fastFor = async (seconds: number): Promise<number[]> => {
  const times: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) times.push(await query({ query: pick(questions) }));
  return times.sort((a, b) => a - b);
};

if (process.argv.includes("--during-ingest")) {
  // Windows of seconds, not of a query count: 100 queries took 1-2 s, too short a look at a
  // pipeline whose steps vary over seconds (the busy p95 of the same code moved 14-25 ms).
  const windowSeconds = option("busy-seconds", 20);
  const idleBefore = await fastFor(windowSeconds / 2);
  // The same instance ingests: its job workers run, and a backlog of items is kept queued so the
  // pipeline never waits for input while the queries are timed.
  app.worker.start();
  const call = async (method: "POST" | "DELETE", url: string, body: unknown, expected: number): Promise<void> => {
    const res = await app.server.inject({
      method,
      url,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    if (res.statusCode !== expected) throw new Error(res.body);
  };
  const post = (from: number, count: number): Promise<void> =>
    call("POST", "/context/ingest", { type: "knowledge", database: "bench", app_knowledge: benchItems(count, "busy-", from) }, 202);
  // The observer must not load the instance it measures: it counts the items still short of
  // searchable (the status index, at most the backlog's 1,000 rows), not those already there (a
  // range growing to every item: 19.7 ms of the request thread every 100 ms at 10,000 items, which
  // the queries timed meanwhile waited behind).
  const shortOfSearchable = async (): Promise<number> => {
    const row = await app.store.reader
      .selectFrom("context_items")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("status", "in", ["queued", "processing"])
      .where("source_id", "like", "busy-%")
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  let posted = 0;
  /** Items made searchable, as of the feeder's last poll (no post in flight then). */
  let searchable = 0;
  let feeding = true;
  const feeder = (async () => {
    while (feeding) {
      const short = await shortOfSearchable();
      searchable = posted - short;
      if (short < 1_000) {
        await post(posted, 250);
        posted += 250;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  await new Promise((r) => setTimeout(r, 3_000)); // the pipeline at full speed before timing
  const before = searchable;
  // What a busy query waits behind: the event loop's delays (a step of the pipeline running when a
  // query's turn came) and garbage-collection pauses, over the timed window.
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const gcPauses: number[] = [];
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  });
  gc.observe({ entryTypes: ["gc"] });
  const stopProfile = await cpuProfileWindow();
  loop.enable();
  const started = performance.now();
  const busy = await fastFor(windowSeconds);
  const seconds = (performance.now() - started) / 1000;
  loop.disable();
  await stopProfile();
  gc.disconnect();
  gcPauses.sort((a, b) => a - b);
  const rate = (searchable - before) / seconds;
  feeding = false;
  await feeder;
  await app.worker.stop(5_000);
  const idleAfter = await fastFor(windowSeconds / 2);
  const idle = [...idleBefore, ...idleAfter].sort((a, b) => a - b);
  console.log(
    `fast hybrid while ingesting (${rate.toFixed(0)} items/s made searchable meanwhile; ${busy.length} queries in ${seconds.toFixed(1)} s): ` +
      `busy p50 ${ms(busy, 0.5)} p95 ${ms(busy, 0.95)}; idle (${idle.length} queries, half before and half after) p50 ${ms(idle, 0.5)} ` +
      `p95 ${ms(idle, 0.95)} (before ${ms(idleBefore, 0.95)}, after ${ms(idleAfter, 0.95)}); ` +
      `busy/idle p95 ${(percentile(busy, 0.95) / percentile(idle, 0.95)).toFixed(2)}x (target <= 2x)`,
  );
  const gcTotal = gcPauses.reduce((a, b) => a + b, 0);
  console.log(
    `  meanwhile: event-loop delay p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, ` +
      `max ${(loop.max / 1e6).toFixed(1)} ms; ${gcPauses.length} GC pauses, ${gcTotal.toFixed(0)} ms in all over ${seconds.toFixed(1)} s, ` +
      `longest ${(gcPauses.at(-1) ?? 0).toFixed(1)} ms`,
  );
  // The store is left as it was found (BENCH_DATA_DIR reuses it): the ingested items are deleted.
  for (let i = 0; i < posted; i += 1_000)
    await call("DELETE", "/context", { database: "bench", ids: benchItems(Math.min(1_000, posted - i), "busy-", i).map((b) => b.id) }, 200);
}
await app.close();
await db.drop();
