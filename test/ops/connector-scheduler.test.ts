import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { FakeSlack } from "../helpers/fake-providers/slack.js";
import { eventually } from "../helpers/harness.js";
import { startServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

// PROCESSES=2 with the connector scheduler every 200 ms: both service processes run the schedule
// pass, each due connector is started once, and no run starts on top of another.

const TOKEN = "xoxb-fake-token";
const ROUNDS = 4;

test("PROCESSES=2: a due connector syncs exactly once per schedule, whichever process starts it", { timeout: 180_000 }, async (t) => {
  const slack = await FakeSlack.start({ token: TOKEN });
  t.after(() => slack.close());
  slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  let posted = 0;
  const post = (n: number): void => {
    for (let i = 0; i < n; i++) slack.post("C0GENERAL", { user: "UADA0001", text: `update number ${posted++}` });
  };
  post(3);

  const db = await createTestDb({ migrated: true });
  t.after(() => db.drop());
  const key = randomBytes(24).toString("hex");
  const server = await startServerProcess(t, db, {
    PROCESSES: "2",
    BOOTSTRAP_API_KEY: key,
    WARM_UP_INDEXES: "false",
    RATE_LIMIT_PER_MINUTE: "0",
    CONNECTOR_SLACK_API_URL: slack.url,
    CONNECTOR_SECRET_KEY: "connector-test-key-0123456789abcdef",
    CONNECTOR_SCHEDULE_MS: "200",
  });
  t.after(() => server.stop());
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    // A connection of its own per call, so the cluster hands the calls to both processes.
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, connection: "close", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  await call("POST", "/databases", { database: "db" });
  await eventually(async () => JSON.stringify(await call("GET", "/databases/status?database=db")).includes('"ready_for_ingestion":true'), 60_000, 100);
  const id = String(
    (await call("POST", "/connectors", { provider: "slack", database: "db", credentials: { access_token: TOKEN }, sync_interval_seconds: 300 })).connector_id,
  );
  await call("POST", `/connectors/${id}/configure`, { resources: [{ resource_id: "C0GENERAL" }] });
  const state = () => call("GET", `/connectors/${id}`);
  const storedItems = async (): Promise<number> => {
    const listed = (await call("POST", "/context/list", { database: "db", type: "knowledge", page_size: 100 })).data as { total: number };
    return listed.total;
  };
  // Idle with nothing in flight: the run of the connector's creation (due at once) may already have run.
  const idle = async (): Promise<Record<string, unknown>> => {
    let last: Record<string, unknown> = {};
    await eventually(
      async () => {
        last = await state();
        return last.sync_status === "idle" && last.lifecycle === "active";
      },
      60_000,
      100,
    );
    return last;
  };

  for (let round = 0; round < ROUNDS; round++) {
    const before = Number((await idle()).sync_cycles_completed);
    post(2);
    // Resuming makes the connector due at once: the next schedule pass, in either process, starts it.
    await call("POST", `/connectors/${id}/pause`);
    await call("POST", `/connectors/${id}/resume`);
    await eventually(async () => Number((await state()).sync_cycles_completed) > before, 60_000, 100);
    const after = await idle();
    assert.equal(Number(after.sync_cycles_completed), before + 1, `round ${round}: one run for one due schedule`);
    assert.equal(after.last_error, "");
  }

  // Several schedule passes later (about ten in each process), no further run started: the
  // connector is not due again for 300 s.
  const settled = Number((await idle()).sync_cycles_completed);
  await sleep(2_000);
  assert.equal(Number((await state()).sync_cycles_completed), settled, "nothing runs before the connector is due");
  await eventually(async () => (await storedItems()) === posted, 60_000, 200);
  const historyReads = slack.calls.filter((c) => c.method === "conversations.history").length;
  assert.ok(historyReads >= ROUNDS, `every round read the channel (${historyReads} reads)`);
});
