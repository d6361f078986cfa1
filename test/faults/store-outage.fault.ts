import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { sql } from "kysely";
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from "../helpers/fake-embeddings-server.js";
import { eventually, startTestApp } from "../helpers/harness.js";
import { startServerProcess } from "../helpers/server-process.js";
import { backendUnderTest, type TestDb } from "../helpers/test-db.js";
import { AcceptedModel, loop } from "./accepted-model.js";
import { FAST_RECOVERY, seededRng, sleep, type Rng } from "./fault-kit.js";
import { startPrivatePostgres } from "./private-postgres.js";
import { contextProblems, deadJobs, openStoreOf, stuckJobs } from "./store-checks.js";

const KEY = "fault-outage-key-0123456789abcdefghijklm";
const DATABASE = "outage";

const embeddingEnv = (e: FakeEmbeddingsServer): Record<string, string> => ({
  EMBEDDING_PROVIDER: "openai",
  EMBEDDING_BASE_URL: e.baseUrl,
  EMBEDDING_MODEL: "fake",
  EMBEDDING_DIMENSIONS: "16",
});

/** The service under test as the suite speaks to it: its base URL and key. */
interface Target {
  readonly baseUrl: string;
  readonly key: string;
}

const call = async (target: Target, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${target.key}`, "API-Version": "2", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(15_000), // a request that hangs fails the test
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

async function readyDatabase(target: Target): Promise<void> {
  assert.equal((await call(target, "POST", "/databases", { database: DATABASE })).status, 202);
  await eventually(async () => {
    const s = await call(target, "GET", `/databases/status?database=${DATABASE}`);
    return (s.body.data as { infra?: { ready_for_ingestion?: boolean } } | undefined)?.infra?.ready_for_ingestion;
  }, 60_000);
}

/** Ingest traffic of small app items until stopped; every answer goes into the model. */
function ingestTraffic(target: Target, model: AcceptedModel, rng: Rng): { stop(): Promise<void> } {
  let serial = 0;
  return loop(
    async () => {
      const ids = Array.from({ length: rng.int(2, 8) }, () => `o-${serial++}`);
      const items = ids.map((id) => ({
        id,
        type: "note",
        content: { text: `Outage note ${id}: ${"the store went away and came back. ".repeat(rng.int(1, 30))}` },
      }));
      await model.offer(ids, () =>
        fetch(`${target.baseUrl}/context/ingest`, {
          method: "POST",
          headers: { Authorization: `Bearer ${target.key}`, "API-Version": "2", "Content-Type": "application/json" },
          body: JSON.stringify({ type: "knowledge", database: DATABASE, app_knowledge: items }),
          signal: AbortSignal.timeout(15_000),
        }),
      );
    },
    () => rng.int(30, 200),
  );
}

/** While the store refuses: writes and /readyz answer 503 SERVICE_UNAVAILABLE at once, never 500, never hang. */
async function assertRefusing(target: Target, strict: boolean): Promise<void> {
  const big = Array.from({ length: 40 }, (_, i) => ({ id: `refused-${i}`, type: "note", content: { text: "x ".repeat(20_000) } }));
  const ingest = await call(target, "POST", "/context/ingest", { type: "knowledge", database: DATABASE, app_knowledge: big });
  assert.equal(ingest.status, 503, JSON.stringify(ingest.body));
  assert.equal((ingest.body.error as { code?: string } | undefined)?.code, "SERVICE_UNAVAILABLE");
  const ready = await fetch(`${target.baseUrl}/readyz`, { signal: AbortSignal.timeout(15_000) });
  assert.equal(ready.status, 503, await ready.text());
  if (strict) {
    const status = await call(target, "GET", `/context/status?database=${DATABASE}&ids=o-0`);
    assert.equal(status.status, 503, JSON.stringify(status.body));
  }
}

/** Answers to requests sent and answered inside [from, to): each one 503 SERVICE_UNAVAILABLE (or, when `fits`, also 2xx). */
function answersWithin(model: AcceptedModel, from: number, to: number, fits: boolean): string[] {
  return model.answers
    .filter((a) => a.startedAt >= from && a.endedAt < to)
    .filter((a) => !(a.status === 503 && a.code === "SERVICE_UNAVAILABLE") && !(fits && a.status !== null && a.status >= 200 && a.status < 300))
    .map((a) => `${String(a.status)} ${a.code}`);
}

async function settled(t: TestContext, target: Target, db: TestDb, model: AcceptedModel): Promise<void> {
  assert.ok(model.accepted.size > 0);
  assert.deepEqual(model.serverErrors(), [], "no 500s: a refusal is 503 SERVICE_UNAVAILABLE");
  const accepted = [...model.accepted];
  let pending: string[] = [];
  try {
    await eventually(
      async () => {
        pending = [];
        for (let i = 0; i < accepted.length; i += 500) {
          const r = await call(target, "GET", `/context/status?database=${DATABASE}&ids=${accepted.slice(i, i + 500).join(",")}`);
          if (r.status !== 200) {
            pending = [`status ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`];
            return false;
          }
          const statuses = (r.body.data as { statuses: Array<{ id: string; indexing_status: string; error_code?: string; message?: string }> }).statuses;
          pending.push(
            ...statuses.filter((s) => s.indexing_status !== "completed").map((s) => `${s.id}: ${s.indexing_status} ${s.error_code ?? ""} ${s.message ?? ""}`),
          );
        }
        return pending.length === 0;
      },
      120_000,
      250,
    );
  } catch (e) {
    // The items still not completed say why (their state and error code).
    console.log(`[fault] not completed: ${pending.slice(0, 10).join("; ")}`);
    throw e;
  }
  const store = openStoreOf(db);
  t.after(() => store.close());
  await eventually(async () => (await contextProblems(store, DATABASE, model)).every((p) => !p.includes("not terminal")), 60_000, 250);
  assert.deepEqual(await contextProblems(store, DATABASE, model), []);
  assert.deepEqual(await stuckJobs(store, Date.now(), 10_000), []);
  assert.deepEqual(await deadJobs(store), []);
}

async function postgresStopped(t: TestContext, rng: Rng): Promise<void> {
  const cluster = await startPrivatePostgres();
  t.after(() => cluster.destroy());
  const embeddings = await startFakeEmbeddingsServer(16);
  t.after(() => embeddings.close());
  const server = await startServerProcess(t, cluster.db, { ...FAST_RECOVERY, BOOTSTRAP_API_KEY: KEY, ...embeddingEnv(embeddings) }, { captureStderr: true });
  const target = { baseUrl: server.baseUrl, key: KEY };
  await readyDatabase(target);
  const model = new AcceptedModel();
  const traffic = ingestTraffic(target, model, rng);
  for (let outage = 0; outage < 2; outage++) {
    const target0 = model.accepted.size + rng.int(5, 40);
    await eventually(async () => model.accepted.size >= target0, 60_000, 10);
    await sleep(rng.int(0, 1000));
    await cluster.stop(); // pg_ctl stop -m fast: every session ends, new ones are refused
    const downAt = Date.now();
    await assertRefusing(target, true);
    await sleep(rng.int(1000, 4000));
    const upAt = Date.now();
    await cluster.start();
    assert.deepEqual(answersWithin(model, downAt, upAt, false), [], "while PostgreSQL is down every ingest answers 503 SERVICE_UNAVAILABLE");
    // Back by itself: same process, no restart.
    await eventually(async () => (await fetch(`${target.baseUrl}/readyz`)).status === 200, 30_000, 100);
    const after = model.accepted.size + 5;
    await eventually(async () => model.accepted.size >= after, 30_000, 10);
  }
  await traffic.stop();
  // On a failure below, the service's own log of its 5xx answers says why.
  if (model.serverErrors().length > 0)
    console.log(
      server
        .stdout()
        .split("\n")
        .filter((l) => l.includes('"level":50'))
        .slice(0, 5)
        .join("\n"),
    );
  assert.equal(server.proc.exitCode, null, "the service was not restarted");
  console.log(`[fault] ${model.requests} ingest requests, ${model.accepted.size} items accepted, ${model.refused} refused with 5xx`);
  await settled(t, target, cluster.db, model);
}

async function sqliteRefusing(t: TestContext, rng: Rng): Promise<void> {
  const embeddings = await startFakeEmbeddingsServer(16);
  t.after(() => embeddings.close());
  // In process: SQLite's page limit and query_only are settings of the service's own connection.
  const app = await startTestApp({ ...FAST_RECOVERY, LOG_LEVEL: "silent", JOB_POLL_MS: "20", ...embeddingEnv(embeddings) });
  t.after(() => app.close());
  const target = { baseUrl: app.baseUrl, key: app.key };
  await readyDatabase(target);
  const writer = app.app.store.db;
  const model = new AcceptedModel();
  const traffic = ingestTraffic(target, model, rng);
  const faults = [
    {
      name: "disk full",
      // Every write needing a new page fails with SQLITE_FULL; one that fits in free pages still succeeds.
      fits: true,
      on: async () => {
        const pages = await sql<{ page_count: number }>`PRAGMA page_count`.execute(writer);
        await sql.raw(`PRAGMA max_page_count = ${Number(pages.rows[0]?.page_count)}`).execute(writer);
      },
      off: () => sql.raw("PRAGMA max_page_count = 1073741823").execute(writer),
    },
    {
      name: "read-only",
      fits: false,
      on: () => sql.raw("PRAGMA query_only = ON").execute(writer),
      off: () => sql.raw("PRAGMA query_only = OFF").execute(writer),
    },
  ];
  for (const fault of faults) {
    const target0 = model.accepted.size + rng.int(5, 40);
    await eventually(async () => model.accepted.size >= target0, 60_000, 10);
    await sleep(rng.int(0, 1000));
    await fault.on();
    const downAt = Date.now();
    await assertRefusing(target, false);
    await sleep(rng.int(1000, 3000));
    const upAt = Date.now();
    await fault.off();
    assert.deepEqual(answersWithin(model, downAt, upAt, fault.fits), [], `${fault.name}: ingest answers 503 SERVICE_UNAVAILABLE`);
    await eventually(async () => (await fetch(`${target.baseUrl}/readyz`)).status === 200, 30_000, 100);
    const after = model.accepted.size + 5;
    await eventually(async () => model.accepted.size >= after, 30_000, 10);
  }
  await traffic.stop();
  console.log(`[fault] ${model.requests} ingest requests, ${model.accepted.size} items accepted, ${model.refused} refused with 5xx`);
  await settled(t, target, app.db, model);
}

test("the store refusing service: 503 SERVICE_UNAVAILABLE meanwhile, no accepted work lost, recovery without a restart", { timeout: 300_000 }, async (t) => {
  const rng = seededRng(`store outage (${backendUnderTest()})`);
  if (backendUnderTest() === "postgres") await postgresStopped(t, rng);
  else await sqliteRefusing(t, rng);
});
