import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test, type TestContext } from "node:test";
import { eventually } from "../helpers/harness.js";
import { startServerProcess, type ServerProcess } from "../helpers/server-process.js";
import { backendUnderTest, createTestDb } from "../helpers/test-db.js";

// Two real server processes on one store (one PostgreSQL database, or one SQLite file), one key:
// the limits that must hold across processes, under requests sent to both at once.

interface Pair {
  readonly a: ServerProcess;
  readonly b: ServerProcess;
  call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}

async function startPair(t: TestContext, env: Record<string, string>): Promise<Pair> {
  const db = await createTestDb();
  const key = randomBytes(24).toString("hex");
  const common = { BOOTSTRAP_API_KEY: key, WARM_UP_INDEXES: "false", JOB_POLL_MS: "50", ...env };
  // One after the other: the second finds the migrations applied and the key bootstrapped.
  const a = await startServerProcess(t, db, common);
  const b = await startServerProcess(t, db, common);
  t.after(async () => {
    await Promise.all([a.stop(), b.stop()]);
    await db.drop();
  });
  const call: Pair["call"] = async (server, method, path, body) => {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, "API-Version": "2", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  return { a, b, call };
}

const count = (statuses: readonly number[], status: number): number => statuses.filter((s) => s === status).length;

test("one key's rate limit across two processes: shared on PostgreSQL (the total is the budget, not twice it); per process on SQLite", async (t) => {
  const perMinute = 40;
  const pair = await startPair(t, { RATE_LIMIT_PER_MINUTE: String(perMinute) });
  const perServer = perMinute + 10;
  const started = Date.now();
  // Both processes at once, interleaved: a, b, a, b, ...
  const sent = Array.from({ length: perServer * 2 }, (_, i) => ({ server: i % 2 === 0 ? pair.a : pair.b }));
  const results = await Promise.all(
    sent.map(async ({ server }) => {
      const res = await pair.call(server, "GET", "/databases");
      return { server, status: res.status, code: (res.body.error as { code?: string } | null | undefined)?.code ?? null };
    }),
  );
  const elapsedMinutes = (Date.now() - started) / 60_000;
  // Tokens that may have been refilled while the requests ran (the bucket refills continuously).
  const refill = Math.ceil(elapsedMinutes * perMinute) + 1;
  assert.deepEqual(
    results.filter((r) => !(r.status === 200 || (r.status === 429 && r.code === "RATE_LIMITED"))),
    [],
    "every answer is 200 or 429 RATE_LIMITED",
  );
  const acceptedBy = (server: ServerProcess): number =>
    count(
      results.filter((r) => r.server === server).map((r) => r.status),
      200,
    );
  const total = acceptedBy(pair.a) + acceptedBy(pair.b);
  if (backendUnderTest() === "postgres") {
    assert.ok(total >= perMinute && total <= perMinute + refill, `accepted ${total} across both processes; the budget is ${perMinute} (+${refill} refilled)`);
  } else {
    // The embedded store keeps each process's bucket in that process: each grants its own budget.
    for (const server of [pair.a, pair.b]) {
      const accepted = acceptedBy(server);
      assert.ok(accepted >= perMinute && accepted <= perMinute + refill, `one process accepted ${accepted}; its budget is ${perMinute} (+${refill})`);
    }
  }
});

test("MAX_DATABASES_PER_ORG holds under concurrent creation from two processes", async (t) => {
  const max = 5;
  const pair = await startPair(t, { MAX_DATABASES_PER_ORG: String(max) });
  const attempts = 24;
  const statuses = await Promise.all(
    Array.from({ length: attempts }, async (_, i) => (await pair.call(i % 2 === 0 ? pair.a : pair.b, "POST", "/databases", { database: `cap${i}` })).status),
  );
  assert.equal(count(statuses, 202), max, `created: ${JSON.stringify(statuses)}`);
  assert.equal(count(statuses, 403), attempts - max);
  const listed = await pair.call(pair.b, "GET", "/databases");
  assert.equal(listed.status, 200);
  assert.equal((listed.body.data as { databases: unknown[] }).databases.length, max);
});

test("the feedback limit (100 per minute per organization) holds under concurrent submissions to two processes", async (t) => {
  const pair = await startPair(t, {});
  assert.equal((await pair.call(pair.a, "POST", "/databases", { database: "fb" })).status, 202);
  await eventually(async () => {
    const res = await pair.call(pair.a, "GET", "/databases/status?database=fb");
    return (res.body.data as { infra?: { ready_for_ingestion?: boolean } } | undefined)?.infra?.ready_for_ingestion;
  }, 30_000);
  // A query on each process: its feedback goes to the same process, which knows it at once.
  const requestIdOf = async (server: ServerProcess): Promise<string> => {
    const res = await pair.call(server, "POST", "/query", { database: "fb", query: "anything", query_by: "text" });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.meta as { request_id: string }).request_id;
  };
  const ids = new Map([
    [pair.a, await requestIdOf(pair.a)],
    [pair.b, await requestIdOf(pair.b)],
  ]);
  const submissions = 130;
  const statuses = await Promise.all(
    Array.from({ length: submissions }, async (_, i) => {
      const server = i % 2 === 0 ? pair.a : pair.b;
      return (await pair.call(server, "POST", "/feedback", { request_id: ids.get(server), feedback: `note ${i}`, rating: "positive" })).status;
    }),
  );
  assert.equal(count(statuses, 201), 100, `statuses: ${JSON.stringify(statuses)}`);
  assert.equal(count(statuses, 429), submissions - 100);
});
