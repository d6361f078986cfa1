import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { spawnTsx } from "../helpers/child-process.js";
import { eventually, startTestApp } from "../helpers/harness.js";
import { deliveryWhen, sharedStoreAndReceiver } from "../helpers/webhook-fixtures.js";

const shared = sharedStoreAndReceiver({ secret: "crash-recovery-secret" });

async function killAfter(child: ChildProcess, marker: RegExp): Promise<string> {
  let out = "";
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  await eventually(async () => marker.test(out), 30_000);
  const exited = once(child, "exit");
  assert.equal(child.kill("SIGKILL"), true);
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  assert.deepEqual([code, signal], [null, "SIGKILL"]);
  return out;
}

test("SIGKILL between the committed status change and its delivery: delivered after restart", { timeout: 120_000 }, async (t) => {
  const { db, receiver } = shared;
  const api = await startTestApp({ WORKERS: "0", WEBHOOK_ALLOW_PRIVATE_URLS: "true" }, db);
  const { key, orgId } = api;
  await api.request("POST", "/webhooks/indexing", { body: { url: receiver.url, signing_secret: "crash-recovery-secret" } });

  const child = spawnTsx(
    t,
    "test/fixtures/status-change-then-hang.ts",
    { ...process.env, DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? "", ORG_ID: orgId, ITEM_ID: "survivor" },
    "pipe",
  );
  const out = await killAfter(child, /committed \S+/);
  const id = /committed (\S+)/.exec(out)?.[1];
  assert.ok(id && id !== "none");
  assert.equal((await api.request("GET", `/webhooks/indexing/deliveries/${id}`, { key })).body.status, "pending", "the outbox row survived the crash");
  assert.equal(receiver.requests.length, 0);
  await api.close();

  const worker = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" }, db);
  try {
    const got = await eventually(async () => receiver.accepted.get(id), 20_000);
    assert.equal(got.verified, true);
    assert.equal(got.json.item_id, "survivor");
    const r = await deliveryWhen(worker, id, (cur) => cur.status === "completed", key);
    assert.equal(r.attempts, 1);
  } finally {
    await worker.close();
  }
});

test("SIGKILL of the server while the receiver holds its delivery: redelivered under the same id after the lease expires", { timeout: 120_000 }, async (t) => {
  const { db, receiver } = shared;
  const api = await startTestApp({ WORKERS: "0", WEBHOOK_ALLOW_PRIVATE_URLS: "true" }, db);
  const key = api.key;
  await api.request("POST", "/webhooks/indexing", { body: { url: receiver.url, signing_secret: "crash-recovery-secret" } });
  const id = await api.app.store.transaction((tx) =>
    api.app.outbox.recordStatusChange(tx, {
      orgId: api.orgId,
      database: "crash",
      collection: "crash",
      itemId: "mid-flight",
      indexingStatus: "errored",
      errorCode: "PARSE_FAILED",
    }),
  );
  assert.ok(id);
  await api.close();

  // The real server process, with workers, delivers; the receiver never answers in time.
  receiver.options = { secret: "crash-recovery-secret", delayMs: 60_000 };
  const server = spawnTsx(
    t,
    "src/main.ts",
    {
      ...process.env,
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl ?? "",
      PORT: "0",
      LOG_LEVEL: "silent",
      WORKERS: "1",
      JOB_LEASE_MS: "1500",
      JOB_POLL_MS: "20",
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_TIMEOUT_MS: "60000",
    },
    "pipe",
  );
  const held = eventually(async () => receiver.requests.some((r) => r.deliveryId === id), 30_000);
  server.stdout?.on("data", () => undefined);
  await held;
  const exited = once(server, "exit");
  server.kill("SIGKILL");
  await exited;
  receiver.options = { secret: "crash-recovery-secret" };

  const worker = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: "true", JOB_LEASE_MS: "1500" }, db);
  try {
    const r = await deliveryWhen(worker, id, (cur) => cur.status === "completed", key, 30_000);
    assert.equal(r.attempts, 1, "the killed attempt was never recorded; the redelivery is attempt 1");
    const sightings = receiver.requests.filter((q) => q.deliveryId === id);
    assert.equal(sightings.length, 2, "sent twice under one delivery id");
    assert.equal(receiver.accepted.get(id)?.json.indexing_status, "errored");
  } finally {
    await worker.close();
  }
});
