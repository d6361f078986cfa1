// Retrieval quality: `npm run bench:retrieval` (embedded) or with DATABASE_URL (PostgreSQL), on
// LoCoMo (memories) and on the knowledge development set (bench/retrieval-hotpot.ts); `--set locomo`
// or `--set hotpot` runs one of them (default both).
// Each conversation is ingested through POST /context/ingest as memories into its own collection
// (one memory per turn, see bench/locomo.ts), then every category 1-4 question goes through
// POST /query (in-process) as plain BM25 (query_by text), fast hybrid and thinking hybrid.
// Prints recall@1/5/10/20 of the evidence turns (per question, averaged) and query latency.
// Options: --conversations N (default 10). BENCH_LOCOMO_DIR=<dir> keeps the SQLite store there and
// reuses it on the next run (skips the ingestion of a set already there; for tuning only: the
// reported figures ingest afresh).
// Models for thinking mode (measured separately from the offline default): RERANK_PROVIDER,
// RERANK_BASE_URL / RERANK_MODEL / RERANK_API_KEY / RERANK_MODEL_PATH, LLM_BASE_URL / LLM_MODEL / LLM_API_KEY with LLM_QUERY_STEPS, and
// QUERY_MODEL_TIMEOUT_MS are passed to the service (a chat model then also serves ingestion).
import { existsSync, mkdirSync } from "node:fs";
import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { option, percentile } from "./bench-utils.js";
import { loadLocomo } from "./locomo.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";
import { ingestHotpot, runHotpot } from "./retrieval-hotpot.js";

// A benchmark is an operator's script: it reads and writes the store directly, across organizations.
enterSystemScope();

const DATASET = new URL("../../shared/datasets/locomo/locomo10.json", import.meta.url).pathname;
const KS = [1, 5, 10, 20] as const;
const setAt = process.argv.indexOf("--set");
const sets = new Set((setAt >= 0 ? (process.argv[setAt + 1] ?? "") : "locomo,hotpot").split(","));
const conversations = loadLocomo(process.env.LOCOMO_PATH ?? DATASET, option("conversations", 10));

const MODEL_SETTINGS = [
  "RERANK_PROVIDER",
  "RERANK_MODEL_PATH",
  "RERANK_BASE_URL",
  "RERANK_MODEL",
  "RERANK_API_KEY",
  "LLM_BASE_URL",
  "LLM_MODEL",
  "LLM_API_KEY",
  "LLM_QUERY_STEPS",
  "QUERY_MODEL_TIMEOUT_MS",
] as const;

const reuseDir = process.env.BENCH_LOCOMO_DIR;
const reused = reuseDir !== undefined && existsSync(reuseDir);
const db = reuseDir ? { dataDir: reuseDir, databaseUrl: null, drop: async () => {} } : await createTestDb();
if (reuseDir) mkdirSync(reuseDir, { recursive: true });
const backend = db.databaseUrl ? "postgres" : "sqlite";
const config = loadConfig({
  DATA_DIR: db.dataDir,
  LOG_LEVEL: "error",
  JOB_POLL_MS: "20",
  RATE_LIMIT_PER_MINUTE: "0",
  ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
  ...Object.fromEntries(MODEL_SETTINGS.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
});
const app = await createApplication(config);
app.worker.start();
const existing = reused ? await app.store.db.selectFrom("organizations").select("id as org_id").where("name", "=", "bench").executeTakeFirst() : undefined;
const orgId = existing ? existing.org_id : (await app.orgs.createOrganization("bench")).id;
const key = (await app.orgs.createKey(orgId, "bench")).key;
const post = async (url: string, payload: unknown): Promise<Record<string, unknown>> => {
  const res = await app.server.inject({
    method: "POST",
    url,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    payload: JSON.stringify(payload),
  });
  if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  return res.json<Record<string, unknown>>();
};

/** Items of a database that are searchable or ended (graph_creation, completed, errored). */
const searchable = async (databaseId: string): Promise<number> => {
  const row = await app.store.db
    .selectFrom("context_items")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("database_id", "=", databaseId)
    .where("status", "in", ["graph_creation", "completed", "errored"])
    .executeTakeFirstOrThrow();
  return Number(row.n);
};
const stored = async (name: string): Promise<boolean> =>
  (await app.store.db.selectFrom("databases").select("id").where("org_id", "=", orgId).where("name", "=", name).executeTakeFirst()) !== undefined;
if (sets.has("locomo") && !(await stored("locomo"))) {
  const database = await app.databases.create(orgId, "locomo", []);
  await app.databases.provision(database.id);
  await app.pipeline.warmUp();
  const started = performance.now();
  const turns = conversations.reduce((n, c) => n + c.memories.length, 0);
  for (const c of conversations) await post("/context/ingest", { type: "memory", database: "locomo", collection: c.collection, memories: c.memories });
  while ((await searchable(database.id)) < turns) await new Promise((r) => setTimeout(r, 200));
  console.log(`ingested ${turns} turns of ${conversations.length} conversations in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

interface Method {
  name: string;
  body: Record<string, unknown>;
}
const methods: Method[] = [
  { name: "BM25 (query_by text)", body: { query_by: "text" } },
  { name: "fast (hybrid)", body: { mode: "fast" } },
  { name: "thinking (hybrid)", body: { mode: "thinking" } },
];
const only = process.env.BENCH_METHODS?.split(",");
// tuning: extra JSON merged into the hybrid queries (e.g. {"alpha":0.2})
const extra = JSON.parse(process.env.BENCH_BODY ?? "{}") as Record<string, unknown>;
const questionCount = conversations.reduce((n, c) => n + c.questions.length, 0);
console.log(`backend: ${backend}; graph_context off`);
const models = [
  config.queryModels.rerank && `reranker ${config.queryModels.rerank.model} (${config.queryModels.rerank.provider})`,
  config.chatModel && config.queryModels.chatSteps.size > 0 && `chat model ${config.chatModel.model} (${[...config.queryModels.chatSteps].join(", ")})`,
].filter((m): m is string => typeof m === "string");
console.log(`thinking mode's models: ${models.length > 0 ? models.join("; ") : "none (offline default)"}`);
if (sets.has("locomo")) {
  console.log(`LoCoMo: ${questionCount} questions (categories 1-4); recall of evidence turns`);
  console.log(`${"method".padEnd(22)} ${KS.map((k) => `R@${k}`.padStart(6)).join(" ")}   p50 ms  p95 ms`);
}
for (const [i, m] of methods.entries()) {
  if (only && !only.includes(String(i))) continue;
  if (!sets.has("locomo")) break;
  const sums: number[] = KS.map(() => 0);
  const byCategory = new Map<number, { n: number; r10: number }>();
  const times: number[] = [];
  for (const c of conversations) {
    for (const q of c.questions) {
      const t0 = performance.now();
      const res = await post("/query", {
        database: "locomo",
        collection: c.collection,
        type: "memory",
        query: q.question,
        max_results: 20,
        graph_context: false,
        ...m.body,
        ...(i > 0 ? extra : {}),
      });
      times.push(performance.now() - t0);
      const ranked = [...new Set((res.data as { chunks: Array<{ id: string }> }).chunks.map((ch) => ch.id))];
      KS.forEach((k, j) => (sums[j]! += q.evidence.filter((e) => ranked.slice(0, k).includes(e)).length / q.evidence.length));
      const cat = byCategory.get(q.category) ?? { n: 0, r10: 0 };
      cat.n++;
      cat.r10 += q.evidence.filter((e) => ranked.slice(0, 10).includes(e)).length / q.evidence.length;
      byCategory.set(q.category, cat);
    }
  }
  times.sort((a, b) => a - b);
  const cats = [...byCategory]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `c${k} ${(v.r10 / v.n).toFixed(3)}`)
    .join(" ");
  console.log(
    `${m.name.padEnd(22)} ${sums.map((s) => (s / questionCount).toFixed(3).padStart(6)).join(" ")}   ${percentile(times, 0.5).toFixed(1).padStart(6)}  ${percentile(times, 0.95).toFixed(1).padStart(6)}   R@10 by category: ${cats}`,
  );
}
if (sets.has("hotpot")) {
  if (!(await stored("hotpot"))) {
    const hotpot = await app.databases.create(orgId, "hotpot", []);
    await app.databases.provision(hotpot.id);
    const started = performance.now();
    const passages = await ingestHotpot(post, "hotpot", () => searchable(hotpot.id));
    console.log(`ingested ${passages} passages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const chosen = methods.filter((_, i) => !only || only.includes(String(i)));
  await runHotpot(
    post,
    "hotpot",
    chosen.map((m) => ({ name: m.name, body: m.body.query_by === "text" ? m.body : { ...m.body, ...extra } })),
  );
}
await app.close();
if (!reuseDir) await db.drop();
