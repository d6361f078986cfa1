import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { sampleOf as sample } from "../helpers/prometheus.js";
import { JOB_KINDS } from "../../src/platform/jobs/catalog.js";
import { createTestDb } from "../helpers/test-db.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

async function scrape(t: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const res = await t.request("GET", "/metrics", { key: null, headers });
  assert.equal(res.status, 200, res.text);
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
  return res.text;
}

test("/metrics: request rate and latency by route template and status, indexing, embedder batches, webhook outcomes, index memory, process metrics", async (t) => {
  const receiver = await startReceiver();
  const app = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
  t.after(async () => {
    await app.close();
    await receiver.close();
  });
  const listed = { method: "GET", route: "/databases", status: "200" };
  for (let i = 0; i < 3; i++) assert.equal((await app.request("GET", "/databases")).status, 200);
  const first = await scrape(app);
  const before = sample(first, "context_store_http_request_duration_seconds_count", listed);
  assert.ok(before !== null && before >= 3, `GET /databases 200 counted: ${before}`);
  assert.ok(
    (sample(first, "context_store_http_request_duration_seconds_bucket", { le: "+Inf", ...listed }) ?? 0) >= 3,
    "the latency histogram has the requests",
  );
  assert.ok(sample(first, "process_resident_memory_bytes") !== null, "the default process metrics are there");
  assert.ok(sample(first, "nodejs_eventloop_lag_seconds") !== null);

  // Raw URLs never become labels: unknown paths are "unmatched", parameters stay in the template.
  assert.equal((await app.request("GET", "/no-such-route/acme-secret-name")).status, 404);
  assert.equal((await app.request("GET", "/context/item-named-payroll/subgraph", { query: { database: "missing" } })).status, 404);
  assert.equal((await app.request("GET", "/databases", { key: "csk_wrong" })).status, 401);
  const second = await scrape(app);
  assert.equal(sample(second, "context_store_http_request_duration_seconds_count", listed), before, "the 401 is its own series");
  assert.equal(sample(second, "context_store_http_request_duration_seconds_count", { method: "GET", route: "/databases", status: "401" }), 1);
  assert.equal(sample(second, "context_store_http_request_duration_seconds_count", { method: "GET", route: "unmatched", status: "404" }), 1);
  assert.equal(sample(second, "context_store_http_request_duration_seconds_count", { method: "GET", route: "/context/:id/subgraph", status: "404" }), 1);
  assert.doesNotMatch(second, /acme-secret-name|item-named-payroll/);
  assert.doesNotMatch(second, new RegExp(app.orgId), "no organization id in any label");

  // Indexing, the embedder's batches and a webhook delivery for each terminal status.
  assert.equal((await app.request("POST", "/webhooks/indexing", { body: { url: receiver.url } })).status, 200);
  await createReadyDatabase(app, "m1");
  const items = ["kiln", "glaze"].map((id) => ({ id, type: "note", content: { text: `The pottery ${id} notes: fired at 1,200 degrees every Thursday.` } }));
  assert.equal((await app.request("POST", "/context/ingest", { body: { type: "knowledge", database: "m1", app_knowledge: items } })).status, 202);
  await waitTerminal(app, "m1", ["kiln", "glaze"]);
  assert.equal((await app.request("POST", "/query", { body: { database: "m1", query: "when is the kiln fired", query_by: "text" } })).status, 200);
  const third = await eventually(async () => {
    const text = await scrape(app);
    return (sample(text, "context_store_webhook_deliveries_total", { outcome: "delivered" }) ?? 0) >= 2 ? text : null;
  }, 30_000);
  assert.equal(sample(third, "context_store_items_indexed_total", { outcome: "searchable" }), 2);
  assert.equal(sample(third, "context_store_items_indexed_total", { outcome: "completed" }), 2);
  assert.ok((sample(third, "context_store_chunks_indexed_total") ?? 0) >= 2);
  const batches = sample(third, "context_store_embedder_batch_size_count");
  const texts = sample(third, "context_store_embedder_batch_size_sum");
  assert.ok(batches !== null && batches >= 1 && texts !== null && texts >= 2, `embedder batches ${batches}, texts ${texts}`);
  assert.ok((sample(third, "context_store_index_entries", { index: "bm25" }) ?? 0) > 0, "the query loaded the BM25 postings");
  assert.ok((sample(third, "context_store_index_memory_bytes", { index: "bm25" }) ?? 0) > 0);
  assert.ok(sample(third, "context_store_connector_syncs_total") === null, "declared, with no series before a sync ran");
  assert.match(third, /# TYPE context_store_connector_syncs_total counter/);
});

test("/metrics: queue depth and the oldest due job's age by kind, read from the store at each scrape", async (t) => {
  const db = await createTestDb();
  // API-only: nothing here takes the provision job, so it stays due.
  const api = await startTestApp({ WORKERS: "0" }, db);
  t.after(async () => {
    await api.close();
    await db.drop();
  });
  assert.equal((await api.request("POST", "/databases", { body: { database: "q1" } })).status, 202);
  const due = { kind: "database.provision", state: "due" };
  assert.equal(sample(await scrape(api), "context_store_jobs", due), 1);
  await api.app.store.db
    .updateTable("jobs")
    .set({ run_at: Date.now() - 120_000 })
    .where("status", "=", "queued")
    .execute();
  const aged = sample(await scrape(api), "context_store_job_oldest_due_age_seconds", { kind: "database.provision" });
  assert.ok(aged !== null && aged >= 120 && aged < 600, `oldest due job waited ${aged} s`);
  // A worker process takes it: the queue's gauges follow the store, whichever process scrapes.
  const worker = await startTestApp({}, db);
  t.after(() => worker.close());
  await eventually(
    async () => field<boolean>((await api.request("GET", "/databases/status", { query: { database: "q1" } })).body, "data.infra.ready_for_ingestion"),
    15_000,
  );
  const drained = await scrape(api);
  assert.equal(sample(drained, "context_store_jobs", due), 0);
  assert.equal(sample(drained, "context_store_job_oldest_due_age_seconds", { kind: "database.provision" }), 0);
});

test("/metrics: an idle queue still has every job kind's series (due, delayed, running, oldest due age), at 0", async (t) => {
  // API-only, so that no recurring job is enqueued and the jobs table stays empty.
  const app = await startTestApp({ WORKERS: "0" });
  t.after(() => app.close());
  assert.equal(
    Number(
      (
        await app.app.store.db
          .selectFrom("jobs")
          .select((e) => e.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    0,
  );
  const text = await scrape(app);
  const missing: string[] = [];
  for (const kind of JOB_KINDS) {
    for (const state of ["due", "delayed", "running"]) {
      if (sample(text, "context_store_jobs", { kind, state }) !== 0) missing.push(`context_store_jobs{kind=${kind},state=${state}}`);
    }
    if (sample(text, "context_store_job_oldest_due_age_seconds", { kind }) !== 0) missing.push(`context_store_job_oldest_due_age_seconds{kind=${kind}}`);
  }
  assert.deepEqual(missing, []);
});

test("METRICS_TOKEN: /metrics needs it as a bearer token; API keys do not open it", async (t) => {
  const token = "metrics-token-0123456789";
  const app = await startTestApp({ METRICS_TOKEN: token });
  t.after(() => app.close());
  const attempts: Array<Record<string, string>> = [{}, { Authorization: "Bearer wrong-token-0123456789" }, { Authorization: `Bearer ${app.key}` }];
  for (const headers of attempts) {
    const res = await app.request("GET", "/metrics", { key: null, headers });
    assert.equal(res.status, 401, JSON.stringify(headers));
    assert.equal(field(res.body, "detail.error_code"), "UNAUTHORIZED");
  }
  assert.match(await scrape(app, { Authorization: `Bearer ${token}` }), /context_store_http_request_duration_seconds/);
});
