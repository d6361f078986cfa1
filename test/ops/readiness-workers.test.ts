import assert from "node:assert/strict";
import { test } from "node:test";
import { field, startTestApp } from "../helpers/harness.js";

test("/readyz reflects the workers: ready while they run, 503 once they stop; queue facts alongside; an API-only node needs none", async (t) => {
  const app = await startTestApp();
  t.after(() => app.close());
  const ready = await app.request("GET", "/readyz", { key: null });
  assert.equal(ready.status, 200, ready.text);
  assert.equal(field(ready.body, "status"), "ready");
  assert.equal(field(ready.body, "workers.enabled"), true);
  assert.equal(field(ready.body, "workers.running"), true);
  const age = field<number>(ready.body, "workers.heartbeat_age_ms");
  assert.ok(typeof age === "number" && age >= 0 && age < 30_000, `heartbeat age ${age}`);
  for (const fact of ["due", "running", "delayed"]) assert.equal(typeof field(ready.body, `queue.${fact}`), "number", fact);

  // A due job nobody takes yet shows in the queue facts (all processes' queue, read from the store).
  assert.equal((await app.request("POST", "/databases", { body: { database: "r1" } })).status, 202);
  await app.app.worker.stop(5_000);
  const stopped = await app.request("GET", "/readyz", { key: null });
  assert.equal(stopped.status, 503, stopped.text);
  assert.equal(field(stopped.body, "status"), "workers not running");
  assert.match(field<string>(stopped.body, "reason"), /WORKERS/);
  assert.equal(field(stopped.body, "workers.running"), false);
  assert.equal(field(stopped.body, "backend"), app.db.databaseUrl ? "postgres" : "sqlite");

  const apiOnly = await startTestApp({ WORKERS: "0" });
  t.after(() => apiOnly.close());
  const node = await apiOnly.request("GET", "/readyz", { key: null });
  assert.equal(node.status, 200, node.text);
  assert.deepEqual(field(node.body, "workers"), { enabled: false, running: false, heartbeat_age_ms: null });
  assert.equal((await apiOnly.request("POST", "/databases", { body: { database: "r2" } })).status, 202);
  const queued = await apiOnly.request("GET", "/readyz", { key: null });
  assert.equal(queued.status, 200, "a waiting queue alone does not make a node unready");
  assert.ok(field<number>(queued.body, "queue.due") >= 1);
  assert.equal(typeof field(queued.body, "queue.oldest_due_age_ms"), "number");
});
