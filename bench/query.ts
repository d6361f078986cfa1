// Query latency at scale: `npm run bench:query` (embedded) or with DATABASE_URL (PostgreSQL).
// Writes 100,000 knowledge chunks (10,000 items of 10 chunks) and 10,000 memory chunks through the
// store layer the pipeline uses (ItemStore.insertChunks with the tokenizer's postings,
// VectorStore.insert + indexAdded). Text: real conversational English, each chunk 3-6 LoCoMo turns
// drawn at random (about 70 words). Vectors: real USE-lite embeddings of 1,000 distinct chunk texts (--distinct-vectors),
// cycled with a small seeded perturbation (embedding 110k chunks would take ~15 minutes here).
// Then times POST /query (in-process, app.server.inject) with LoCoMo questions and prints p50 / p95
// of the server-side latency (meta.latency_ms: parse to response, query embedding included).
// Options: --chunks N (default 100000), --runs N (default 100). BENCH_DATA_DIR=<dir> (embedded only)
// keeps the written store there and reuses it on the next run, to iterate without rewriting.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createApplication } from "../src/app.js";
import { defaultCollectionOf } from "../src/features/databases/service.js";
import { loadConfig } from "../src/platform/config.js";
import { ItemStore, type ItemRow } from "../src/features/items/store.js";
import { createLocalEmbedder } from "../src/engines/embeddings/local-embedder.js";
import type { Corpus } from "../src/features/items/item-types.js";
import { termFrequencies } from "../src/engines/bm25/index.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { option, percentile, seededRandom } from "./bench-utils.js";
import { loadLocomo } from "./locomo.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";

// A benchmark is an operator's script: it reads and writes the store directly, across organizations.
enterSystemScope();

const CHUNKS = option("chunks", 100_000);
const RUNS = option("runs", 100);
const PER_ITEM = 10;
const DISTINCT_VECTORS = option("distinct-vectors", 1_000);
const DATASET = new URL("../../shared/datasets/locomo/locomo10.json", import.meta.url).pathname;
const locomo = loadLocomo(process.env.LOCOMO_PATH ?? DATASET, 10);
const sentences = locomo.flatMap((c) => c.memories.map((m) => m.text.replace(/^\[[^\]]*\] [^:]+: /, "")));
const questions = locomo.flatMap((c) => c.questions.map((q) => q.question));
const random = seededRandom();
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const chunkText = (): string => Array.from({ length: 3 + Math.floor(random() * 4) }, () => pick(sentences)).join(" ");

const keepDir = process.env.BENCH_DATA_DIR && !process.env.DATABASE_URL ? process.env.BENCH_DATA_DIR : null;
const reuse = keepDir !== null && existsSync(join(keepDir, "context-store.sqlite"));
const db = keepDir ? { dataDir: keepDir, databaseUrl: null, drop: async () => undefined } : await createTestDb();
const backend = db.databaseUrl ? "postgres" : "sqlite";
const config = loadConfig({
  DATA_DIR: db.dataDir,
  LOG_LEVEL: "error",
  RATE_LIMIT_PER_MINUTE: "0",
  ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
});
const appStarted = performance.now();
const app = await createApplication(config);
if (reuse) {
  // What a restart costs: the search indexes of the stored scopes load in the background at start.
  const scopes = await app.indexesWarm;
  console.log(`search indexes loaded at start (WARM_UP_INDEXES): ${scopes.length} scopes in ${((performance.now() - appStarted) / 1000).toFixed(1)} s`);
}
const org = reuse ? await app.store.db.selectFrom("organizations").selectAll().executeTakeFirstOrThrow() : await app.orgs.createOrganization("bench");
const key = (await app.orgs.createKey(org.id, `bench-${Date.now()}`)).key;
const database = reuse ? await app.databases.get(org.id, "bench") : await app.databases.create(org.id, "bench", []);
if (!reuse) await app.databases.provision(database.id);
const collection = defaultCollectionOf(database);

let started = performance.now();
let written = reuse ? CHUNKS + CHUNKS / 10 : 0;
if (!reuse) {
  const embedder = await createLocalEmbedder({ workers: 2, batchSize: 32 });
  const texts = Array.from({ length: CHUNKS + CHUNKS / 10 }, chunkText);
  const base = await embedder.embed(texts.slice(0, DISTINCT_VECTORS));
  await embedder.close();
  const vectorOf = (i: number): Float32Array => {
    const v = Float32Array.from(base[i % DISTINCT_VECTORS]!, (x) => x + (random() - 0.5) * 0.01);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  console.log(`embedded ${DISTINCT_VECTORS} distinct texts in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  started = performance.now();
  const writeItems = async (corpus: Corpus, items: number, perItem: number): Promise<void> => {
    for (let n = 0; n < items; n += 50) {
      await app.store.transaction(async (tx) => {
        const store = new ItemStore(tx);
        for (let j = n; j < Math.min(items, n + 50); j++) {
          const item = itemRow(corpus, `${corpus}-${j}`);
          await store.insert(item);
          const chunkTexts = texts.slice(written, written + perItem);
          const keys = await store.insertChunks(
            item,
            chunkTexts.map((content, position) => ({
              chunk_uuid: randomUUID(),
              position,
              content,
              section_path: [],
              page: null,
              unit: null,
              token_count: content.split(" ").length,
              terms: termFrequencies(content),
            })),
          );
          const vectors = keys.map((_, i) => vectorOf(written + i));
          written += perItem;
          await app.vectors.insert(tx, { orgId: database.org_id, databaseId: database.id, corpus, collection }, keys, vectors);
          pendingIndex.push({ corpus, keys, vectors });
        }
      });
      for (const p of pendingIndex.splice(0))
        await app.vectors.indexAdded({ orgId: database.org_id, databaseId: database.id, corpus: p.corpus, collection }, p.keys, p.vectors);
    }
  };
  const pendingIndex: Array<{ corpus: Corpus; keys: number[]; vectors: Float32Array[] }> = [];
  await writeItems("knowledge", CHUNKS / PER_ITEM, PER_ITEM);
  await writeItems("memory", CHUNKS / 10, 1);
  console.log(`wrote ${written} chunks (${CHUNKS} knowledge, ${CHUNKS / 10} memory) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function itemRow(corpus: Corpus, sourceId: string): ItemRow {
  const at = Date.now() - Math.floor(random() * 365 * 86_400_000);
  return {
    id: randomUUID(),
    org_id: org.id,
    database_id: database.id,
    collection,
    corpus,
    source_id: sourceId,
    generation: 1,
    origin: corpus === "memory" ? "memory" : "app",
    title: sourceId,
    type: corpus === "memory" ? "memory" : "note",
    description: null,
    note: null,
    url: null,
    item_timestamp: at,
    metadata: "{}",
    additional_metadata: "{}",
    relations: "{}",
    acl: null,
    app_kind: null,
    app_provider: null,
    app_external_id: null,
    thread_id: null,
    parent_id: null,
    content: null,
    file_name: null,
    file_mime: null,
    content_hash: null,
    blob_id: null,
    infer: 0,
    inferred_content: null,
    custom_instructions: null,
    user_name: null,
    expires_at: null,
    status: "completed",
    error_code: null,
    message: null,
    chunk_count: PER_ITEM,
    created_at: at,
    updated_at: at,
    connector_id: null,
  };
}

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
