// Cost of the per-key rate limit per request: `npm run bench:rate-limit` (embedded: the in-process
// bucket) or with DATABASE_URL (PostgreSQL: the shared bucket, one statement per request).
// Starts the application twice on a fresh store, with the limit on (a budget no run exhausts) and
// off (RATE_LIMIT_PER_MINUTE=0), sends the same authenticated GET /databases sequentially, then
// 8 at a time, and prints p50 / p95 of the server-side latency (meta.latency_ms: from the request
// hook to the response, authentication and the limit included) and their difference.
// Options: --requests N (default 2000).
import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { enterSystemScope, outsideAnyScope } from "../src/platform/store/row-scope.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { option, percentile } from "./bench-utils.js";

enterSystemScope();

const REQUESTS = option("requests", 2000);
const CONCURRENCY = 8;

async function measure(limit: number): Promise<{ sequential: number[]; concurrent: number[] }> {
  const db = await createTestDb();
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: "silent",
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl ?? "",
    WORKERS: "0",
    WARM_UP_INDEXES: "false",
    RATE_LIMIT_PER_MINUTE: String(limit),
  });
  const app = await outsideAnyScope(() => createApplication(config));
  try {
    const org = await app.orgs.createOrganization("bench");
    const { key } = await app.orgs.createKey(org.id, "bench");
    const once = async (): Promise<number> => {
      const res = await app.server.inject({ method: "GET", url: "/databases", headers: { authorization: `Bearer ${key}` } });
      if (res.statusCode !== 200) throw new Error(`GET /databases answered ${res.statusCode}: ${res.body}`);
      return (JSON.parse(res.body) as { meta: { latency_ms: number } }).meta.latency_ms;
    };
    for (let i = 0; i < 200; i++) await once(); // warm-up: connections, JIT
    const sequential: number[] = [];
    for (let i = 0; i < REQUESTS; i++) sequential.push(await once());
    const concurrent: number[] = [];
    for (let i = 0; i < REQUESTS; i += CONCURRENCY) concurrent.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, once))));
    return { sequential, concurrent };
  } finally {
    await app.close();
    await db.drop();
  }
}

const fmt = (ms: number): string => ms.toFixed(3);
const on = await measure(10_000_000);
const off = await measure(0);
console.log(`backend: ${process.env.DATABASE_URL ? "postgres (shared bucket)" : "sqlite (in-process bucket)"}; ${REQUESTS} requests per run`);
for (const mode of ["sequential", "concurrent"] as const) {
  const [a, b] = [[...on[mode]].sort((x, y) => x - y), [...off[mode]].sort((x, y) => x - y)];
  const [p50on, p95on, p50off, p95off] = [percentile(a, 0.5), percentile(a, 0.95), percentile(b, 0.5), percentile(b, 0.95)];
  console.log(
    `${mode.padEnd(10)} limit on: p50 ${fmt(p50on)} ms, p95 ${fmt(p95on)} ms | off: p50 ${fmt(p50off)} ms, p95 ${fmt(p95off)} ms | added: p50 ${fmt(p50on - p50off)} ms, p95 ${fmt(p95on - p95off)} ms`,
  );
}
