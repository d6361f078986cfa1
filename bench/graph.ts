// Context graph: `npm run bench:graph` (embedded) or `DATABASE_URL=postgres://... npm run bench:graph`.
// Prints: subgraph p50 / p95 at depth 5 with max_sources 200 over a generated 100,000-item graph
// (target: p95 <= 50 ms embedded), relations paging throughput, and graph building's share of an
// item's ingestion time with the offline extractors (target: at most +30%).
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { RelationsService } from "../src/features/context-graph/relations-service.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { writeDataset } from "./graph-dataset.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";

// A benchmark is an operator's script: it reads and writes the store directly, across organizations.
enterSystemScope();

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const INGEST_ITEMS = Number(process.env.BENCH_INGEST_ITEMS ?? 30);

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const db = await createTestDb();
const backend = db.databaseUrl ? "postgres" : "sqlite";
const config = loadConfig({
  DATA_DIR: db.dataDir,
  LOG_LEVEL: "error",
  JOB_POLL_MS: "20",
  RATE_LIMIT_PER_MINUTE: "0",
  ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
});
const app = await createApplication(config);
const org = await app.orgs.createOrganization("bench");
const database = await app.databases.create(org.id, "bench", []);
await app.databases.provision(database.id);

// 1. The 100,000-item graph, written through the graph store.
let started = performance.now();
const data = await writeDataset(app.store, org.id, database.id, ITEMS, (line) => console.log(line));
const writeSeconds = (performance.now() - started) / 1000;
// Planner statistics, as an operator would keep them (autovacuum / PRAGMA optimize).
await sql`ANALYZE`.execute(app.store.db);

// 2. Subgraph latency at depth 5, max_sources 200, through the service.
const address = { orgId: org.id, databaseId: database.id, collection: "bench", corpus: "knowledge" as const, principals: null };
const seeds = Array.from({ length: QUERIES }, (_, i) => data.sourceIds[(i * 7919) % data.sourceIds.length] ?? "");
for (const id of seeds.slice(0, 20)) await app.subgraphs.subgraph({ ...address, id, depth: 5, maxSources: 200 });
const times: number[] = [];
let members = 0;
let truncated = 0;
for (const id of seeds) {
  const t0 = performance.now();
  const sg = await app.subgraphs.subgraph({ ...address, id, depth: 5, maxSources: 200 });
  times.push(performance.now() - t0);
  members += sg.sources.length;
  if (sg.is_truncated) truncated += 1;
}
times.sort((a, b) => a - b);
// Same through HTTP (inject: routing, validation, envelope), a smaller sample.
const key = (await app.orgs.createKey(org.id, "bench")).key;
const httpTimes: number[] = [];
for (const id of seeds.slice(0, 100)) {
  const t0 = performance.now();
  const res = await app.server.inject({
    method: "GET",
    url: `/context/subgraph?database=bench&depth=5&max_sources=200&id=${encodeURIComponent(id)}`,
    headers: { authorization: `Bearer ${key}` },
  });
  httpTimes.push(performance.now() - t0);
  if (res.statusCode !== 200) throw new Error(res.body);
}
httpTimes.sort((a, b) => a - b);

// Graph context for a query naming two people, and connected items for thinking mode.
const contextTimes: Record<"fast" | "thinking", number[]> = { fast: [], thinking: [] };
let contextPaths = 0;
for (let i = 0; i < 60; i += 1) {
  const mode = i % 2 === 0 ? "fast" : "thinking";
  const t0 = performance.now();
  const ctx = await app.graphContext.graphContextFor({
    orgId: database.org_id,
    databaseId: database.id,
    corpus: "knowledge",
    collections: ["bench"],
    queryText: `What did Person ${(i * 31) % 2000} tell Person ${(i * 17) % 2000}?`,
    chunks: [],
    principals: null,
    mode,
  });
  contextTimes[mode].push(performance.now() - t0);
  contextPaths += ctx.query_paths.length;
}
const relatedTimes: number[] = [];
for (const id of seeds.slice(0, 100)) {
  const t0 = performance.now();
  await app.graphContext.relatedItems({
    orgId: database.org_id,
    databaseId: database.id,
    corpus: "knowledge",
    collection: "bench",
    sourceIds: [id],
    principals: null,
  });
  relatedTimes.push(performance.now() - t0);
}
for (const list of [contextTimes.fast, contextTimes.thinking, relatedTimes]) list.sort((a, b) => a - b);

// 3. Relations paging over the whole collection, 100 groups per page.
const relations = new RelationsService(app.store);
started = performance.now();
let groups = 0;
let pages = 0;
let cursor: number | undefined;
const pageBudgetMs = 20_000;
do {
  const page = await relations.relations({ ...address, id: undefined, limit: 100, cursor });
  groups += page.relations.length;
  pages += 1;
  cursor = page.next_cursor ?? undefined;
} while (cursor !== undefined && performance.now() - started < pageBudgetMs);
const pagingSeconds = (performance.now() - started) / 1000;

// 4. Graph building's share of an item's ingestion time: items one at a time through HTTP.
app.worker.start();
await app.pipeline.warmUp();
await app.graphBuilder.warmUp();
await app.databases.create(org.id, "ingest", []).then((row) => app.databases.provision(row.id));
const texts = [
  "Ada Lovelace <ada@example.com> wrote: the billing migration slipped to next Friday; Grace Hopper will review ENG-42 with @linus.",
  "John Smith works at Microsoft and lives in Seattle. He met Maria Garcia in Paris last week about the Acme Corp contract.",
  "Deploy failed on prod at 3pm, rolled back; see https://status.example.com/incidents/12 and ping @oncall.",
];
let ingestMs = 0;
const graphBefore = { ...app.graphBuilder.stats };
for (let i = 0; i < INGEST_ITEMS; i += 1) {
  const item = {
    kind: "message",
    provider: "slack",
    external_id: `ing-${i}`,
    created_at: "2024-03-01T10:00:00Z",
    fields: {
      user: { name: "Ada Lovelace", email: "ada@example.com" },
      text: `${texts[i % texts.length] ?? ""} ${texts[(i + 1) % texts.length] ?? ""}`,
      thread_ts: "t1",
      mentions: ["@grace"],
    },
  };
  const t0 = performance.now();
  const res = await app.server.inject({
    method: "POST",
    url: "/context/ingest",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify({ type: "knowledge", database: "ingest", app_knowledge: [item] }),
  });
  if (res.statusCode !== 202) throw new Error(res.body);
  for (;;) {
    const row = await app.store.db.selectFrom("context_items").select("status").where("source_id", "=", `slack:message:ing-${i}`).executeTakeFirst();
    if (row?.status === "completed" || row?.status === "errored") break;
    await new Promise((r) => setTimeout(r, 5));
  }
  ingestMs += performance.now() - t0;
}
const graphMs = app.graphBuilder.stats.totalMs - graphBefore.totalMs;

console.log(`backend: ${backend}`);
console.log(`graph written: ${ITEMS} items in ${writeSeconds.toFixed(1)} s`);
console.log(
  `subgraph depth 5, max_sources 200 (service, ${QUERIES} seeds): p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, mean members ${(members / QUERIES).toFixed(0)}, truncated ${truncated}/${QUERIES}`,
);
console.log(`subgraph over HTTP (inject, 100 seeds): p50 ${percentile(httpTimes, 50).toFixed(1)} ms, p95 ${percentile(httpTimes, 95).toFixed(1)} ms`);
console.log(
  `graph context (query naming two people): fast p50 ${percentile(contextTimes.fast, 50).toFixed(1)} / p95 ${percentile(contextTimes.fast, 95).toFixed(1)} ms, thinking p50 ${percentile(contextTimes.thinking, 50).toFixed(1)} / p95 ${percentile(contextTimes.thinking, 95).toFixed(1)} ms, ${(contextPaths / 60).toFixed(1)} query paths each`,
);
console.log(`related items (2 hops, 20 items): p50 ${percentile(relatedTimes, 50).toFixed(1)} ms, p95 ${percentile(relatedTimes, 95).toFixed(1)} ms`);
console.log(`relations paging: ${groups} groups in ${pages} pages, ${pagingSeconds.toFixed(2)} s = ${(groups / pagingSeconds).toFixed(0)} groups/s`);
console.log(
  `graph building: ${(graphMs / INGEST_ITEMS).toFixed(1)} ms per item of ${(ingestMs / INGEST_ITEMS).toFixed(1)} ms ingestion (202 to completed) = +${((graphMs / (ingestMs - graphMs)) * 100).toFixed(1)}% (target <= 30%)`,
);
await app.close();
await db.drop();
