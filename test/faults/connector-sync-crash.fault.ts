import assert from "node:assert/strict";
import { once } from "node:events";
import { after, test } from "node:test";
import { sql } from "kysely";
import { FakeSlack } from "../helpers/fake-providers/slack.js";
import { spawnTsx } from "../helpers/child-process.js";
import { eventually, startTestApp } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import { freePort } from "../helpers/webhook-receiver.js";
import { SECRET_KEY, SLACK_TOKEN } from "../connectors/connector-fixtures.js";
import { seededRng } from "./fault-kit.js";

let db: TestDb | null = null;
after(async () => db?.drop());

const PARENTS = 1000;
const REPLIES_EVERY = 5;
const REPLIES = 3;
const TOTAL = PARENTS + (PARENTS / REPLIES_EVERY) * REPLIES;

test(
  "SIGKILL of the service during a sync: after restart the run resumes from its checkpoint and every object is stored exactly once",
  { timeout: 300_000 },
  async (t0) => {
    const rng = seededRng("connector sync");
    // Pages of history (200 messages each, 5 in all) asked for before the provider freezes and the kill.
    const killAtPage = rng.int(2, 4);
    db = await createTestDb();
    const slack = await FakeSlack.start({ token: SLACK_TOKEN });
    t0.after(() => slack.close());
    slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
    slack.addChannel({ id: "C0BIG", name: "big" });
    for (let i = 0; i < PARENTS; i++) {
      const ts = slack.post("C0BIG", { user: "UADA0001", text: `decision log entry ${i}: we keep the queue durable` });
      if (i % REPLIES_EVERY === 0) for (let r = 0; r < REPLIES; r++) slack.post("C0BIG", { user: "UADA0001", text: `reply ${r} to entry ${i}`, threadTs: ts });
    }
    const env = { CONNECTOR_SLACK_API_URL: slack.url, CONNECTOR_SECRET_KEY: SECRET_KEY, JOB_LEASE_MS: "2000" };
    const port = await freePort();
    const key = "connector-crash-key-0123456789abcdefghij";
    const base = `http://127.0.0.1:${port}`;
    const proc = spawnTsx(t0, "src/main.ts", {
      ...process.env,
      ...env,
      PORT: String(port),
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl ?? "",
      BOOTSTRAP_API_KEY: key,
      LOG_LEVEL: "error",
    });
    const exited = once(proc, "exit");
    await eventually(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, 30_000, 100);
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, "API-Version": "2", ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    assert.equal((await call("POST", "/databases", { database: "crash" })).status, 202);
    await eventually(
      async () =>
        ((await call("GET", "/databases/status?database=crash")).body.data as { infra?: { ready_for_ingestion?: boolean } } | undefined)?.infra
          ?.ready_for_ingestion,
    );
    const created = await call("POST", "/connectors", { provider: "slack", database: "crash", credentials: { access_token: SLACK_TOKEN } });
    assert.equal(created.status, 201);
    const id = String(created.body.connector_id);
    const history = () => slack.calls.filter((c) => c.method === "conversations.history");

    // Freeze the provider's answers once history page `killAtPage` was asked for: the pages before
    // it are committed, that one is in flight, the rest are still to come. Then kill the service.
    let release: (() => void) | null = null;
    const watcher = setInterval(() => {
      if (release === null && history().length >= killAtPage) release = slack.http.hold();
    }, 1);
    t0.after(() => {
      clearInterval(watcher);
      release?.();
    });
    assert.equal((await call("POST", `/connectors/${id}/configure`, { resources: [{ resource_id: "C0BIG" }] })).status, 200);
    const started = await call("POST", `/connectors/${id}/sync`);
    assert.ok(started.status === 202 || started.status === 409, `sync: ${started.status}`); // 409: the scheduler started it first
    await eventually(async () => release !== null, 60_000, 5);
    const before = await eventually(async () => {
      const c = (await call("GET", `/connectors/${id}`)).body;
      return c.sync_status === "running" && Number(c.documents_dispatched) > 0 ? c : null;
    }, 30_000);
    assert.equal(proc.kill("SIGKILL"), true);
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    assert.equal(signal, "SIGKILL");
    clearInterval(watcher);
    const pagesBeforeKill = history().length;
    (release as (() => void) | null)?.();

    const t = await startTestApp(env, db);
    t0.after(() => t.close());
    const s = t.app.store.db;
    const resource = await s
      .selectFrom("connector_resources")
      .select(["checkpoint", "provider_cursor"])
      .where("connector_id", "=", id)
      .executeTakeFirstOrThrow();
    assert.notEqual(resource.checkpoint, null, "killed mid-window: a checkpoint is stored");
    assert.equal(resource.provider_cursor, "");
    const dispatchedAtKill = Number(
      (await s.selectFrom("connectors").select("documents_dispatched").where("id", "=", id).executeTakeFirstOrThrow()).documents_dispatched,
    );
    assert.ok(
      dispatchedAtKill > 0 && dispatchedAtKill < TOTAL,
      `partially synced: ${dispatchedAtKill} of ${TOTAL} (the record said ${String(before.documents_dispatched)})`,
    );

    // The killed run's job comes back after its lease (2 s) and continues from the checkpoint.
    const done = await eventually(
      async () => {
        const c = (await t.request("GET", `/connectors/${id}`, { key })).body;
        return c.sync_status === "idle" && c.last_successful_sync_at !== null ? c : null;
      },
      120_000,
      100,
    );
    assert.equal(done.last_error, "");
    assert.equal(done.sync_cycles_completed, 1, "the same run finished, not a new one");
    assert.ok(history()[pagesBeforeKill]?.params.get("cursor"), "the first page after the restart is the checkpoint's, not the first page");
    assert.equal(done.documents_dispatched, TOTAL, "every object dispatched exactly once");
    const counts = await s
      .selectFrom("context_items")
      .select([sql<number>`COUNT(*)`.as("n"), sql<number>`COUNT(DISTINCT source_id)`.as("ids"), sql<number>`COUNT(DISTINCT app_external_id)`.as("natives")])
      .where("connector_id", "=", id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [Number(counts.n), Number(counts.ids), Number(counts.natives)],
      [TOTAL, TOTAL, TOTAL],
      "every object stored once, no duplicate by id or native id",
    );
    const ledger = await s
      .selectFrom("connector_objects")
      .select(sql<number>`COUNT(*)`.as("n"))
      .where("connector_id", "=", id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(ledger.n), TOTAL);
    const generations = await s
      .selectFrom("context_items")
      .select(sql<number>`MAX(generation)`.as("g"))
      .where("connector_id", "=", id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(generations.g), 1, "no object was written twice");
  },
);
