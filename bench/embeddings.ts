// Local embedder throughput: `npx tsx bench/embeddings.ts [sentences]`. Prints sentences/s for 1
// and 2 worker threads, float32 and int8 (EMBEDDING_PRECISION), on the same synthetic sentences (short, chat-like, 8-20 words). Then the
// query lane: how long a query's text takes to embed while 400 ingestion texts are queued, with
// the query queued behind them (as before the lane) and with the lane (EMBEDDING_QUERY_WORKERS=1);
// and the lane's CPU per query with 1 and 8 queries in flight (those waiting share one model call).
import { createLocalEmbedder } from "../src/engines/embeddings/local-embedder.js";
import { percentile } from "./bench-utils.js";

const count = Number(process.argv[2] ?? 2000);
const words =
  "team meeting tomorrow about the launch plan budget review customer asked for a refund because delivery was late please update the ticket status and notify engineering".split(
    " ",
  );
const sentences = Array.from({ length: count }, (_, i) => {
  const n = 8 + (i % 13);
  return Array.from({ length: n }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ") + ` #${i}`;
});

const precisions = ["float32", "int8"] as const;
for (const [precision, workers] of precisions.flatMap((p) => [1, 2].map((w) => [p, w] as const))) {
  const loadStart = performance.now();
  const embedder = await createLocalEmbedder({ workers, batchSize: 32, precision });
  const loadMs = performance.now() - loadStart;
  await embedder.embed(sentences.slice(0, 64));
  const started = performance.now();
  const vectors = await embedder.embed(sentences);
  const seconds = (performance.now() - started) / 1000;
  await embedder.close();
  console.log(
    `${precision} workers=${workers}: load ${Math.round(loadMs)} ms, ${vectors.length} sentences in ${seconds.toFixed(1)} s = ${Math.round(vectors.length / seconds)} sentences/s`,
  );
}

const paragraphs = Array.from({ length: 400 }, (_, i) => Array.from({ length: 6 }, (_, j) => sentences[(i * 3 + j) % sentences.length]).join(". "));
for (const lane of [false, true]) {
  const embedder = await createLocalEmbedder({ workers: 2, batchSize: 16, queryWorkers: lane ? 1 : 0 });
  await embedder.embed(paragraphs.slice(0, 8));
  const ingestion = embedder.embed(paragraphs);
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await embedder.embed([`what did the customer ask about the refund #${i}?`], { urgent: lane });
    times.push(performance.now() - t0);
  }
  await ingestion;
  await embedder.close();
  times.sort((a, b) => a - b);
  console.log(
    `${lane ? "query lane" : "one queue (before the lane)"}: 10 query embeddings during ingestion of 400 paragraphs: p50 ${percentile(times, 0.5).toFixed(0)} ms, max ${(times.at(-1) ?? NaN).toFixed(0)} ms`,
  );
}

// Queries arriving together on the query lane alone (no ingestion): 200 distinct questions, 8 in
// flight at a time, so that those waiting while the lane is busy go in one model call. CPU of the
// whole process per query (the lane's thread does the work).
for (const precision of precisions) {
  const embedder = await createLocalEmbedder({ workers: 1, batchSize: 16, queryWorkers: 1, precision });
  const questions = Array.from({ length: 200 }, (_, i) => `what did the customer ask about refund number ${i} and the late delivery?`);
  await embedder.embed(questions.slice(0, 4), { urgent: true });
  for (const inFlight of [1, 8]) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < questions.length; i += inFlight) {
      await Promise.all(questions.slice(i, i + inFlight).map((q) => embedder.embed([q], { urgent: true })));
    }
    const used = process.cpuUsage(cpu);
    console.log(
      `${precision} query lane, ${inFlight} queries in flight: ${((used.user + used.system) / 1000 / questions.length).toFixed(1)} ms CPU and ${((performance.now() - started) / questions.length).toFixed(1)} ms wall per query`,
    );
  }
  await embedder.close();
}
