// Ingestion throughput: `npm run bench:ingest` (embedded) or `DATABASE_URL=postgres://... npm run bench:ingest`.
// Prints: the embedder's raw throughput on the exact chunk texts the pipeline produces; the
// pipeline's chunks/s from 202 to searchable (graph_creation) for 1,000 app items and their
// ratio; and the time to searchable of a 20-page PDF. BENCH_ITEMS sets the item count; BENCH_MARKS=1
// prints the pipeline window's wall-clock marks to stderr (to line up CPU samples of the process);
// BENCH_CPU_PROFILE=<file> writes a CPU profile of that window.
// BENCH_EMBEDDER=instant: the service embeds through an OpenAI-compatible endpoint that answers at
// once (bench/instant-embeddings-server.ts, its own process), so the figure is the pipeline's own
// ceiling when a user brings a fast GPU embedder. The endpoint answers with our offline encoder's
// vectors of the chunk texts, computed before the run (bench/instant-vectors.ts; cached);
// BENCH_INSTANT_VECTORS=random makes it answer with random vectors instead (the index's worst case).

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { sql } from "kysely";
import { createApplication } from "../src/app.js";
import { SharedEmbedder } from "../src/engines/embeddings/shared-embedder.js";
import { loadConfig } from "../src/platform/config.js";
import { createLocalEmbedder } from "../src/engines/embeddings/local-embedder.js";
import { renderAppItem, validateAppItem } from "../src/engines/documents/app-items/index.js";
import { chunkDocument } from "../src/engines/documents/chunk/index.js";
import type { Corpus, IndexingStatus } from "../src/features/items/item-types.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { makePdf } from "../test/helpers/make-files.js";
import { benchItems, benchPeople, benchTopics } from "./ingest-items.js";
import { precomputedVectorsFile } from "./instant-vectors.js";
import { cpuProfileWindow } from "./bench-utils.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";

// A benchmark is an operator's script: it reads and writes the store directly, across organizations.
enterSystemScope();

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const items = benchItems(ITEMS);
const topics = benchTopics;
const people = benchPeople;

/** The instant endpoint in a process of its own, answering from `vectorsFile` if given; resolves with its base URL. */
async function startInstantEmbedder(vectorsFile: string | null): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [...process.execArgv, new URL("./instant-embeddings-server.ts", import.meta.url).pathname], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...(vectorsFile === null ? {} : { INSTANT_VECTORS: vectorsFile }) },
  });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const m = /^listening (\S+)/.exec(line);
    if (m) {
      process.on("exit", () => child.kill("SIGTERM")); // also when the benchmark fails
      return { url: m[1]!, stop: () => child.kill("SIGTERM") };
    }
  }
  throw new Error("the instant embeddings endpoint did not start");
}

const db = await createTestDb();
const backend = db.databaseUrl ? "postgres" : "sqlite";
// The service as deployed: default settings (workers are woken by enqueues in this process, not by polling).
const serviceEnv = { ...process.env, DATA_DIR: db.dataDir, LOG_LEVEL: "error", ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}) };

// The exact chunk texts the pipeline produces (the chunking settings do not depend on the embedder).
const chunking = loadConfig(serviceEnv);
const chunkTexts = items.flatMap((raw) => {
  const v = validateAppItem(raw);
  if (!v.ok) throw new Error(v.message);
  return chunkDocument(renderAppItem(v.item), { maxTokens: chunking.chunkMaxTokens, overlapTokens: chunking.chunkOverlapTokens }).map((c) => c.text);
});

const randomVectors = process.env.BENCH_INSTANT_VECTORS === "random";
const instant = process.env.BENCH_EMBEDDER === "instant" ? await startInstantEmbedder(randomVectors ? null : await precomputedVectorsFile(chunkTexts)) : null;
const config = instant
  ? loadConfig({
      ...serviceEnv,
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_BASE_URL: `${instant.url}/v1`,
      EMBEDDING_MODEL: "instant",
      EMBEDDING_DIMENSIONS: "512",
    })
  : chunking;

// 1. The embedder alone, on the same chunk texts, with the same worker count as the service.
const workers = config.embedding.provider === "local" ? config.embedding.workers : 2;
// The instant endpoint is measured through the service's own embedder (the OpenAI client, batching).
const raw = config.embedding.provider === "local" ? await createLocalEmbedder({ workers, batchSize: 32 }) : new SharedEmbedder(config.embedding);
await raw.embed(chunkTexts.slice(0, 64));
let started = performance.now();
for (let i = 0; i < chunkTexts.length; i += 64) await raw.embed(chunkTexts.slice(i, i + 64));
const rawSeconds = (performance.now() - started) / 1000;
await raw.close();
const rawRate = chunkTexts.length / rawSeconds;

// 2. The service: 1,000 app items from the 202 to searchable.
const app = await createApplication(config);
app.worker.start();
const org = await app.orgs.createOrganization("bench");
const database = await app.databases.create(org.id, "bench", []);
await app.databases.provision(database.id);
// Warmed up on the same 64 texts as the raw embedder above, so both are measured warm.
await app.pipeline.warmUp(chunkTexts.slice(0, 64));
// The observer must not load the system it measures. It watches the last items sent (jobs are
// claimed in the order they were queued): a primary-key read of those few every 50 ms. Only once
// they are all there does it COUNT the items still short of the wanted state, and it goes on
// counting until none is. (A COUNT every 50 ms of the items short of searchable read every item
// still queued: 3.7 ms a time at 3,000 items, 6% of the request thread in the instant-embedder
// run. Reading the items already there read a range growing to every item.) The COUNT goes by
// the status index: with `database_id` indexable, SQLite read every item of the database through
// its listing index, 55 ms inside the window once all were searchable.
const pending = async (prefix: string, states: readonly IndexingStatus[]): Promise<number> => {
  const row = await app.store.reader
    .selectFrom("context_items")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "in", states)
    .where(sql<string>`database_id || ''`, "=", database.id)
    .where("source_id", "like", `${prefix}%`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};
let scope: { corpus: Corpus; collection: string } | undefined;
const anyShort = async (sourceIds: readonly string[], states: readonly IndexingStatus[]): Promise<boolean> => {
  // The scope the items went to, read once (the unique index starts with it).
  scope ??= await app.store.reader
    .selectFrom("context_items")
    .select(["corpus", "collection"])
    .where("database_id", "=", database.id)
    .executeTakeFirstOrThrow();
  const rows = await app.store.reader
    .selectFrom("context_items")
    .select("status")
    .where("database_id", "=", database.id)
    .where("corpus", "=", scope.corpus)
    .where("collection", "=", scope.collection)
    .where("source_id", "in", [...sourceIds])
    .execute();
  return rows.length < sourceIds.length || rows.some((r) => states.includes(r.status));
};
const pause = () => new Promise((r) => setTimeout(r, 50));
/**
 * Until no item of the prefix is short of searchable (or, `completed`, of its graph); errored ones
 * end too. `last`: the ids of the items sent last, watched first.
 */
const waitFor = async (prefix: string, until: "searchable" | "completed" = "searchable", last: readonly string[] = []): Promise<void> => {
  const short: IndexingStatus[] = until === "searchable" ? ["queued", "processing"] : ["queued", "processing", "graph_creation"];
  if (last.length > 0) while (await anyShort(last, short)) await pause();
  while ((await pending(prefix, short)) > 0) await pause();
};
const lastIds = items.slice(-16).map((i) => i.id);
const inject = (payload: unknown) =>
  app.server.inject({
    method: "POST",
    url: "/context/ingest",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify(payload),
  });
const key = (await app.orgs.createKey(org.id, "bench")).key;

if (process.env.BENCH_MARKS) console.error(`MARK pipeline-start ${Date.now() / 1000}`);
const stopProfile = await cpuProfileWindow();
started = performance.now();
const res = await inject({ type: "knowledge", database: "bench", app_knowledge: items });
if (res.statusCode !== 202) throw new Error(res.body);
const acceptMs = performance.now() - started;
await waitFor("bench-", "searchable", lastIds);
const pipelineSeconds = (performance.now() - started) / 1000;
await stopProfile();
if (process.env.BENCH_MARKS) console.error(`MARK pipeline-end ${Date.now() / 1000}`);
const chunkRows = await app.store.db
  .selectFrom("context_chunks")
  .select((eb) => eb.fn.countAll<number>().as("n"))
  .where("database_id", "=", database.id)
  .executeTakeFirstOrThrow();
const pipelineRate = Number(chunkRows.n) / pipelineSeconds;
// Graph building runs at background priority while items are being made searchable; it catches up here.
await waitFor("bench-", "completed", lastIds);
const completedSeconds = (performance.now() - started) / 1000;

// 3. A 20-page PDF from the 202 to searchable.
const pages = Array.from({ length: 20 }, (_, p) =>
  Array.from(
    { length: 40 },
    (_, l) => `Page ${p + 1} line ${l + 1}: ${topics[(p + l) % topics.length]} notes by ${people[l % people.length]} on item ${p * 40 + l}.`,
  ),
);
const pdf = await makePdf(pages);
const boundary = "----bench";
const body = Buffer.concat([
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nknowledge\r\n--${boundary}\r\nContent-Disposition: form-data; name="database"\r\n\r\nbench\r\n`,
  ),
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="document_metadata"\r\n\r\n[{"id":"pdf-20"}]\r\n`),
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="twenty.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
  Buffer.from(pdf),
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
started = performance.now();
const pdfRes = await app.server.inject({
  method: "POST",
  url: "/context/ingest",
  headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
  payload: body,
});
if (pdfRes.statusCode !== 202) throw new Error(pdfRes.body);
await waitFor("pdf-20");
const pdfSeconds = (performance.now() - started) / 1000;

console.log(
  `backend: ${backend}, embedder: ${instant ? `instant OpenAI-compatible endpoint (its own process; ${randomVectors ? "random 512-d vectors" : "our encoder's vectors of the texts, precomputed"})` : `local USE-lite, ${workers} worker threads`}`,
);
console.log(`embedder raw: ${chunkTexts.length} chunks in ${rawSeconds.toFixed(2)} s = ${rawRate.toFixed(1)} chunks/s`);
console.log(
  `pipeline (${ITEMS} app items, accept ${acceptMs.toFixed(0)} ms): ${chunkRows.n} chunks searchable in ${pipelineSeconds.toFixed(2)} s = ${pipelineRate.toFixed(1)} chunks/s ` +
    `from the request (${(Number(chunkRows.n) / (pipelineSeconds - acceptMs / 1000)).toFixed(1)} chunks/s from the 202)`,
);
console.log(`all ${ITEMS} items completed (graph built) ${completedSeconds.toFixed(2)} s after the request`);
console.log(`pipeline / raw embedder: ${((pipelineRate / rawRate) * 100).toFixed(1)}% (target >= 80%)`);
console.log(`20-page PDF: searchable ${pdfSeconds.toFixed(2)} s after the request, upload included (target <= 15 s from the 202)`);
await app.close();
await db.drop();
instant?.stop();
