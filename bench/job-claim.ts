// Job claims against a backlog: `npm run bench:job-claim` (embedded) or with DATABASE_URL (PostgreSQL).
// Every worker lane claims in a loop on the request thread (each claim a statement), so a claim's
// cost must not grow with the jobs waiting behind it. For each backlog of queued `ingest.item`
// jobs, times --runs claims of 32 by the ingestion lane (each given back untouched, so the backlog
// stays the same) and of the lane of the other kinds, which finds nothing due.
import { sql } from "kysely";
import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { INGEST, OTHERS } from "../src/platform/jobs/worker-pool.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { option, percentile } from "./bench-utils.js";

const RUNS = option("runs", 200);
const BACKLOGS = (process.env.BENCH_BACKLOGS ?? "1000,10000,100000").split(",").map(Number);
const LIMIT = 32;

const db = await createTestDb();
const app = await createApplication(loadConfig({ DATA_DIR: db.dataDir, LOG_LEVEL: "error", ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}) }));
const ms = (sorted: readonly number[], p: number): string => percentile(sorted, p).toFixed(2).padStart(7);
console.log(`backend: ${app.store.backend}; ${RUNS} claims of ${LIMIT} per lane and backlog; load ${(await import("node:os")).loadavg()[0]!.toFixed(1)}`);
let queued = 0;
for (const backlog of BACKLOGS) {
  for (; queued < backlog; queued += 5_000) {
    const count = Math.min(5_000, backlog - queued);
    await app.queue.enqueueMany(
      "ingest.item",
      Array.from({ length: count }, (_, i) => ({ payload: { itemId: `bench-${queued + i}`, generation: 1 } })),
    );
  }
  // PostgreSQL plans by statistics; autovacuum would analyse the grown table soon after.
  if (app.store.backend === "postgres") await sql`ANALYZE jobs`.execute(app.store.db);
  const times = { ingest: [] as number[], others: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    let t0 = performance.now();
    const claimed = await app.queue.claim("bench", LIMIT, 60_000, INGEST);
    times.ingest.push(performance.now() - t0);
    if (claimed.length !== LIMIT) throw new Error(`claimed ${claimed.length} of ${LIMIT}`);
    for (const job of claimed) await app.queue.release(job);
    t0 = performance.now();
    await app.queue.claim("bench", LIMIT, 60_000, OTHERS);
    times.others.push(performance.now() - t0);
  }
  times.ingest.sort((a, b) => a - b);
  times.others.sort((a, b) => a - b);
  console.log(
    `backlog ${String(backlog).padStart(7)}: ingestion lane p50 ${ms(times.ingest, 0.5)} ms p95 ${ms(times.ingest, 0.95)} ms; ` +
      `other kinds (none due) p50 ${ms(times.others, 0.5)} ms p95 ${ms(times.others, 0.95)} ms`,
  );
}
await app.close();
await db.drop();
