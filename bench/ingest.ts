// Ingestion throughput: `npm run bench:ingest` (embedded) or `DATABASE_URL=postgres://... npm run bench:ingest`.
// Prints: the embedder's raw throughput on the exact chunk texts the pipeline produces; the
// pipeline's chunks/s from 202 to searchable (graph_creation) for 1,000 app items and their
// ratio; and the time to searchable of a 20-page PDF. BENCH_ITEMS sets the item count; BENCH_MARKS=1
// prints the pipeline window's wall-clock marks to stderr (to line up CPU samples of the process).

import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { createLocalEmbedder } from "../src/engines/embeddings/local-embedder.js";
import { renderAppItem, validateAppItem } from "../src/engines/documents/app-items/index.js";
import { chunkDocument } from "../src/engines/documents/chunk/index.js";
import type { IndexingStatus } from "../src/features/items/item-types.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { makePdf } from "../test/helpers/make-files.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";

// A benchmark is an operator's script: it reads and writes the store directly, across organizations.
enterSystemScope();

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const topics = ["billing", "onboarding", "security review", "the mobile app", "quarterly planning", "hiring", "the data pipeline", "customer churn"];
const people = ["Ada", "Grace", "Linus", "Margaret", "Barbara", "Ken"];
function paragraph(i: number, n: number): string {
  return Array.from({ length: n }, (_, j) => {
    const t = topics[(i + j) % topics.length]!;
    const p = people[(i * 3 + j) % people.length]!;
    return `${p} wrote an update about ${t}: the team finished step ${j + 1} of ticket ${i}-${j}, found two open questions and plans a review next week.`;
  }).join(" ");
}
const items = Array.from({ length: ITEMS }, (_, i) => ({ id: `bench-${i}`, type: "note", title: `Note ${i}`, content: { text: paragraph(i, 3 + (i % 6)) } }));

const db = await createTestDb();
const backend = db.databaseUrl ? "postgres" : "sqlite";
// The service as deployed: default settings (workers are woken by enqueues in this process, not by polling).
const config = loadConfig({ ...process.env, DATA_DIR: db.dataDir, LOG_LEVEL: "error", ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}) });

// 1. The embedder alone, on the same chunk texts, with the same worker count as the service.
const chunkTexts = items.flatMap((raw) => {
  const v = validateAppItem(raw);
  if (!v.ok) throw new Error(v.message);
  return chunkDocument(renderAppItem(v.item), { maxTokens: config.chunkMaxTokens, overlapTokens: config.chunkOverlapTokens }).map((c) => c.text);
});
const workers = config.embedding.provider === "local" ? config.embedding.workers : 2;
const raw = await createLocalEmbedder({ workers, batchSize: 32 });
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
// The observer must not load the system it measures: one COUNT by prefix every 50 ms (a
// 1,000-row read every 20 ms cost the PostgreSQL run seconds of CPU on both sides of the socket).
const reached = async (prefix: string, states: readonly string[]): Promise<number> => {
  const row = await app.store.reader
    .selectFrom("context_items")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("database_id", "=", database.id)
    .where("source_id", "like", `${prefix}%`)
    .where("status", "in", states as IndexingStatus[])
    .executeTakeFirstOrThrow();
  return Number(row.n);
};
const waitFor = async (prefix: string, count: number, states: readonly string[] = ["graph_creation", "completed"]): Promise<void> => {
  while ((await reached(prefix, states)) < count) await new Promise((r) => setTimeout(r, 50));
};
const inject = (payload: unknown) =>
  app.server.inject({
    method: "POST",
    url: "/context/ingest",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify(payload),
  });
const key = (await app.orgs.createKey(org.id, "bench")).key;

if (process.env.BENCH_MARKS) console.error(`MARK pipeline-start ${Date.now() / 1000}`);
started = performance.now();
const res = await inject({ type: "knowledge", database: "bench", app_knowledge: items });
if (res.statusCode !== 202) throw new Error(res.body);
const acceptMs = performance.now() - started;
await waitFor("bench-", items.length);
const pipelineSeconds = (performance.now() - started) / 1000;
if (process.env.BENCH_MARKS) console.error(`MARK pipeline-end ${Date.now() / 1000}`);
const chunkRows = await app.store.db
  .selectFrom("context_chunks")
  .select((eb) => eb.fn.countAll<number>().as("n"))
  .where("database_id", "=", database.id)
  .executeTakeFirstOrThrow();
const pipelineRate = Number(chunkRows.n) / pipelineSeconds;
// Graph building runs at background priority while items are being made searchable; it catches up here.
await waitFor("bench-", items.length, ["completed"]);
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
await waitFor("pdf-20", 1);
const pdfSeconds = (performance.now() - started) / 1000;

console.log(`backend: ${backend}, embedder: local USE-lite, ${workers} worker threads`);
console.log(`embedder raw: ${chunkTexts.length} chunks in ${rawSeconds.toFixed(2)} s = ${rawRate.toFixed(1)} chunks/s`);
console.log(
  `pipeline (${ITEMS} app items, accept ${acceptMs.toFixed(0)} ms): ${chunkRows.n} chunks searchable in ${pipelineSeconds.toFixed(2)} s = ${pipelineRate.toFixed(1)} chunks/s`,
);
console.log(`all ${ITEMS} items completed (graph built) ${completedSeconds.toFixed(2)} s after the 202`);
console.log(`pipeline / raw embedder: ${((pipelineRate / rawRate) * 100).toFixed(1)}% (target >= 80%)`);
console.log(`20-page PDF: searchable ${pdfSeconds.toFixed(2)} s after the 202 (target <= 15 s)`);
await app.close();
await db.drop();
