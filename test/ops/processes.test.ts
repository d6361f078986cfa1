import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { test } from "node:test";
import { childrenOf } from "../../bench/proc-stat.js";
import { createReadyDatabase, eventually, startTestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { sampleOf } from "../helpers/prometheus.js";
import { startServerProcess, type ServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

// PROCESSES=2: a primary process forks two service processes on one port and one store.

/** /healthz answers once the first process listens: this waits for the primary's line saying both do. */
async function bothListening(server: ServerProcess): Promise<void> {
  await eventually(async () => server.stdout().includes("all service processes listening"), 60_000, 100).catch((err: unknown) => {
    throw new Error(`stdout ${server.stdout().slice(-3000)}; stderr ${server.stderr().slice(-3000)}`, { cause: err });
  });
}

/** One request on a connection of its own, so the cluster hands each request to the next process in turn. */
function onNewConnection(url: string, key: string, method = "GET", body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = {
      Authorization: `Bearer ${key}`,
      "API-Version": "2",
      Connection: "close",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    };
    const req = request(url, { method, agent: false, headers }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test("PROCESSES=2: two service processes share one port and one key's rate limit; a killed one is replaced", { timeout: 180_000 }, async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const key = randomBytes(24).toString("hex");
  const perMinute = 40;
  const server = await startServerProcess(
    t,
    db,
    { PROCESSES: "2", BOOTSTRAP_API_KEY: key, WARM_UP_INDEXES: "false", RATE_LIMIT_PER_MINUTE: String(perMinute), LOG_LEVEL: "info" },
    { captureStderr: true },
  );
  t.after(() => server.stop());
  const primary = server.proc.pid ?? 0;
  await bothListening(server);
  const [first, second] = childrenOf(primary);
  assert.ok(first !== undefined && second !== undefined);

  // Twice the budget and more, each on a new connection: handed out in turn, each process gets
  // more than the budget, so a limit kept per process would accept about twice as many.
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: 2 * (perMinute + 10) }, () => onNewConnection(`${server.baseUrl}/databases`, key)));
  const refill = Math.ceil(((Date.now() - started) / 60_000) * perMinute) + 1;
  const statuses = results.map((r) => r.status);
  assert.deepEqual(
    results.filter((r) => r.status !== 200 && !(r.status === 429 && r.body.includes("RATE_LIMITED"))),
    [],
    "every answer is 200 or 429 RATE_LIMITED",
  );
  const accepted = statuses.filter((s) => s === 200).length;
  assert.ok(
    accepted >= perMinute && accepted <= perMinute + refill,
    `accepted ${accepted} across both processes; the budget is ${perMinute} (+${refill} refilled)`,
  );

  // A service process killed: the primary starts another in its place and the port keeps answering.
  process.kill(second, "SIGKILL");
  await eventually(
    async () => {
      const now = childrenOf(primary);
      return now.length === 2 && !now.includes(second) && now.includes(first);
    },
    60_000,
    100,
  );
  const health = await Promise.all(Array.from({ length: 6 }, () => fetch(`${server.baseUrl}/healthz`).then((r) => r.status)));
  assert.deepEqual(health, [200, 200, 200, 200, 200, 200]);
});

test("PROCESSES=2: /metrics merges both processes' instruments, whichever process a scrape reaches", { timeout: 180_000 }, async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const key = randomBytes(24).toString("hex");
  const server = await startServerProcess(
    t,
    db,
    { PROCESSES: "2", BOOTSTRAP_API_KEY: key, WARM_UP_INDEXES: "false", LOG_LEVEL: "info" },
    { captureStderr: true },
  );
  t.after(() => server.stop());
  await bothListening(server);
  // Each on a connection of its own: the processes get them in turn, about half each.
  const listed = 10;
  for (let i = 0; i < listed; i++) assert.equal((await onNewConnection(`${server.baseUrl}/databases`, key)).status, 200);
  // Four scrapes, also handed out in turn: each reports every request, from both processes.
  const series = { method: "GET", route: "/databases", status: "200" };
  for (let i = 0; i < 4; i++) {
    const scrape = await onNewConnection(`${server.baseUrl}/metrics`, key);
    assert.equal(scrape.status, 200, scrape.body);
    assert.equal(
      sampleOf(scrape.body, "context_store_http_request_duration_seconds_count", series),
      listed,
      `scrape ${i}: GET /databases counted across processes`,
    );
    assert.equal(sampleOf(scrape.body, "context_store_http_request_duration_seconds_bucket", { le: "+Inf", ...series }), listed);
    // The earlier scrapes, whichever process answered them (a scrape counts once it is answered).
    assert.equal(sampleOf(scrape.body, "context_store_http_request_duration_seconds_count", { method: "GET", route: "/metrics", status: "200" }) ?? 0, i);
  }
});

test("PROCESSES=2: feedback sent to the other process right after its query is accepted", { timeout: 180_000 }, async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const key = randomBytes(24).toString("hex");
  // Entries gather for 1 s before a process writes them: the other process surely has not yet.
  const server = await startServerProcess(
    t,
    db,
    { PROCESSES: "2", BOOTSTRAP_API_KEY: key, WARM_UP_INDEXES: "false", QUERY_LOG_FLUSH_MS: "1000", LOG_LEVEL: "info" },
    { captureStderr: true },
  );
  t.after(() => server.stop());
  await bothListening(server);
  assert.equal((await onNewConnection(`${server.baseUrl}/databases`, key, "POST", { database: "fb" })).status, 202);
  await eventually(async () => {
    const res = await onNewConnection(`${server.baseUrl}/databases/status?database=fb`, key);
    return res.status === 200 && (JSON.parse(res.body) as { data?: { infra?: { ready_for_ingestion?: boolean } } }).data?.infra?.ready_for_ingestion === true;
  }, 30_000);
  // Each query and its feedback on new connections, handed to the processes in turn: the
  // feedback reaches the other process before the query's own process has flushed its log.
  for (let i = 0; i < 6; i++) {
    const query = await onNewConnection(`${server.baseUrl}/query`, key, "POST", { database: "fb", query: `question ${i}`, query_by: "text" });
    assert.equal(query.status, 200, query.body);
    const requestId = (JSON.parse(query.body) as { meta: { request_id: string } }).meta.request_id;
    const feedback = await onNewConnection(`${server.baseUrl}/feedback`, key, "POST", { request_id: requestId, feedback: `note ${i}`, rating: "positive" });
    assert.equal(feedback.status, 201, feedback.body);
  }
});

test("PROCESSES=2: a process started while another serves listens once its indexes and models are warm", { timeout: 180_000 }, async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const seeded = await startTestApp({}, db);
  try {
    await createReadyDatabase(seeded, "warm");
    await ingestMultipart(seeded, {
      type: "knowledge",
      database: "warm",
      app_knowledge: JSON.stringify([{ id: "k1", type: "note", content: { text: "Harbour cranes unload containers at dawn." } }]),
    });
    await waitTerminal(seeded, "warm", ["k1"]);
  } finally {
    await seeded.close();
  }
  const server = await startServerProcess(
    t,
    db,
    { PROCESSES: "2", BOOTSTRAP_API_KEY: randomBytes(24).toString("hex"), LOG_LEVEL: "info" },
    { captureStderr: true },
  );
  t.after(() => server.stop());
  await bothListening(server);
  const out = server.stdout();
  const loaded = [...out.matchAll(/"scopes":(\d+),"msg":"search indexes loaded before listening"/g)];
  // The first process listens at once (nothing else serves yet); the second only after its load.
  assert.equal(loaded.length, 1, out.slice(-3000));
  assert.equal(loaded[0]![1], "1");
  // By the lines' own times, not their order in the shared stdout: each process's logger writes
  // asynchronously, so a line of the joining process can reach the pipe after a later one of the primary.
  const timeOf = (message: string): number => Number(new RegExp(`"time":(\\d+)[^\\n]*"msg":"${message}"`).exec(out)?.[1] ?? NaN);
  assert.ok(timeOf("search indexes loaded before listening") <= timeOf("all service processes listening"), out.slice(-3000));
  // ...and once its embedder and extraction workers have started: its first requests do not load models.
  const pid = /"pid":(\d+)[^\n]*"msg":"search indexes loaded before listening"/.exec(out)?.[1];
  const started = out.search(new RegExp(`"pid":${pid}[^\\n]*"msg":"embedder and extraction workers started"`));
  assert.ok(started >= 0 && started < loaded[0]!.index, out.slice(-3000));
});
