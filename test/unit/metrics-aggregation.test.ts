import assert from "node:assert/strict";
import { test } from "node:test";
import { AggregatorRegistry } from "prom-client";
import { Metrics, type IndexMemory } from "../../src/platform/metrics/metrics.js";
import { sampleOf } from "../helpers/prometheus.js";

// How a cluster's scrape merges its processes' instruments (cluster-metrics.ts): each
// instrument's aggregator. Two processes read the same queue and each hold their own indexes.
test("merged metrics: requests summed, the shared queue not counted twice, index memory summed and entries not", async () => {
  const memory: IndexMemory = { bm25Postings: 500, bm25Bytes: 8_000, vectors: 40, vectorBytes: 20_000, vectorRebuilds: 1, bm25Loads: { file: 3, store: 1 } };
  const queue = [{ kind: "index_item", due: 7, delayed: 2, running: 1, oldestDueRunAt: 1_000 }];
  const processes = [new Metrics(), new Metrics()];
  for (const [i, metrics] of processes.entries()) {
    for (let r = 0; r <= i; r++) metrics.request("GET", "/databases", 200, 0.01);
    metrics.sample(queue, memory, 4_000);
  }
  const parts = await Promise.all(processes.map((m) => m.snapshot()));
  const text = await AggregatorRegistry.aggregate(parts).metrics();
  assert.equal(sampleOf(text, "context_store_http_request_duration_seconds_count", { method: "GET", route: "/databases", status: "200" }), 3);
  assert.equal(sampleOf(text, "context_store_jobs", { kind: "index_item", state: "due" }), 7);
  assert.equal(sampleOf(text, "context_store_jobs", { kind: "index_item", state: "running" }), 1);
  assert.equal(sampleOf(text, "context_store_job_oldest_due_age_seconds", { kind: "index_item" }), 3);
  assert.equal(sampleOf(text, "context_store_index_memory_bytes", { index: "vector" }), 40_000);
  assert.equal(sampleOf(text, "context_store_index_entries", { index: "bm25" }), 500);
  assert.equal(sampleOf(text, "context_store_vector_index_rebuilds"), 2);
  assert.equal(sampleOf(text, "context_store_search_index_loads", { from: "file" }), 6);
  assert.equal(sampleOf(text, "context_store_search_index_loads", { from: "store" }), 2);
});
