import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

describe("per-key rate limit", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: "3" });
  });
  after(async () => t.close());

  test("beyond the budget: 429 RATE_LIMITED with Retry-After; other keys are unaffected", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.request("GET", "/databases")).status, 200);
    const limited = await t.request("GET", "/databases");
    assert.equal(limited.status, 429);
    assert.equal(field(limited.body, "error.code"), "RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 20, `Retry-After ${retryAfter}`);
    assert.match(field<string>(limited.body, "error.message"), new RegExp(`${retryAfter} seconds`));
    const other = await t.newOrgKey();
    assert.equal((await t.request("GET", "/databases", { key: other.key })).status, 200);
    assert.equal((await t.request("GET", "/healthz", { key: null })).status, 200, "health checks are not limited");
  });
});

interface Answer {
  status: number;
  code: string | undefined;
  retryAfter: string | undefined;
}

/** GET /databases from a chosen local address (every 127.x.y.z is this machine), with a key and extra headers. */
function getFrom(t: TestApp, localAddress: string, key: string | null, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL("/databases", t.baseUrl),
      { localAddress, agent: false, headers: { "API-Version": "2", ...(key === null ? {} : { Authorization: `Bearer ${key}` }), ...headers } },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => {
          const body = JSON.parse(text) as { error?: { code?: string } };
          const retryAfter = res.headers["retry-after"];
          resolve({ status: res.statusCode ?? 0, code: body.error?.code, retryAfter: typeof retryAfter === "string" ? retryAfter : undefined });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const wrongKey = (): string => `csk_${randomBytes(16).toString("hex")}`;
const statuses = (answers: readonly Answer[]): Record<number, number> => {
  const out: Record<number, number> = {};
  for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
  return out;
};

describe("failed authentication is limited per client address (AUTH_FAILURES_PER_MINUTE)", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ AUTH_FAILURES_PER_MINUTE: "20" });
  });
  after(async () => t.close());

  test("a burst of wrong keys: the budget's worth are 401, the rest 429 with Retry-After; other addresses are not affected", async () => {
    const burst = await Promise.all(Array.from({ length: 300 }, () => getFrom(t, "127.0.0.2", wrongKey())));
    assert.deepEqual(statuses(burst), { 401: 20, 429: 280 });
    for (const limited of burst.filter((a) => a.status === 429)) {
      assert.equal(limited.code, "RATE_LIMITED");
      const seconds = Number(limited.retryAfter);
      assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= 120, `Retry-After ${limited.retryAfter}`);
    }
    // That address is refused before its key is looked up, a valid one included, whatever it claims to forward.
    assert.equal((await getFrom(t, "127.0.0.2", t.key)).status, 429);
    assert.equal((await getFrom(t, "127.0.0.2", t.key, { "X-Forwarded-For": "198.51.100.9" })).status, 429);
    assert.equal((await getFrom(t, "127.0.0.2", null)).status, 429);
    // Another address: its keys work, and its own failures have their own budget.
    assert.equal((await getFrom(t, "127.0.0.3", t.key)).status, 200);
    assert.deepEqual(statuses(await Promise.all(Array.from({ length: 5 }, () => getFrom(t, "127.0.0.3", wrongKey())))), { 401: 5 });
    assert.equal((await getFrom(t, "127.0.0.3", t.key)).status, 200);
    // Successes are not counted: many of them, then the budget is still whole.
    for (let i = 0; i < 30; i++) assert.equal((await getFrom(t, "127.0.0.4", t.key)).status, 200);
    assert.deepEqual(statuses(await Promise.all(Array.from({ length: 20 }, () => getFrom(t, "127.0.0.4", wrongKey())))), { 401: 20 });

    // The minute slides by: the address may present keys again.
    t.clock.advance(121_000);
    assert.equal((await getFrom(t, "127.0.0.2", t.key)).status, 200);
    assert.equal((await getFrom(t, "127.0.0.2", wrongKey())).status, 401);
  });
});

describe("failed authentication budget: shared by the processes of one store, and per forwarded client behind TRUSTED_PROXIES", () => {
  let db: TestDb;
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    db = await createTestDb({ migrated: true });
    // Two applications on one store stand for two service processes (PROCESSES=2: counted in the store).
    const env = { AUTH_FAILURES_PER_MINUTE: "6", PROCESSES: "2", TRUSTED_PROXIES: "127.0.0.0/8" };
    a = await startTestApp(env, db);
    b = await startTestApp(env, db);
  });
  after(async () => {
    await a.close();
    await b.close();
    await db.drop();
  });

  test("failures at either process count against one budget; the client named by the trusted proxy is the one limited", async () => {
    const client = { "X-Forwarded-For": "203.0.113.7" };
    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) answers.push(await getFrom(i % 2 === 0 ? a : b, "127.0.0.5", wrongKey(), client));
    assert.deepEqual(
      answers.map((x) => x.status),
      [401, 401, 401, 401, 401, 401, 429, 429, 429, 429, 429, 429],
    );
    for (const app of [a, b]) assert.equal((await getFrom(app, "127.0.0.5", app.key, client)).status, 429);
    // Another client behind the same proxy is not affected; nor is the proxy's own address.
    for (const app of [a, b]) {
      assert.equal((await getFrom(app, "127.0.0.5", app.key, { "X-Forwarded-For": "203.0.113.8" })).status, 200);
      assert.equal((await getFrom(app, "127.0.0.5", app.key)).status, 200);
    }
  });
});
