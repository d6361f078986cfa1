import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { JOB_KINDS } from "../jobs/catalog.js";
import type { QueueDepth } from "../jobs/job-store.js";

/** Outcomes of one webhook delivery attempt. */
export type DeliveryOutcome = "delivered" | "retrying" | "failed";

/** What the search indexes of this process hold in memory, as the engines can tell. */
export interface IndexMemory {
  readonly bm25Postings: number;
  readonly bm25Bytes: number;
  readonly vectors: number;
  readonly vectorBytes: number;
  /** Vector indexes rebuilt from the table since the process started (SQLite). */
  readonly vectorRebuilds: number;
  /** BM25 indexes loaded since the process started: from their saved files, or from the stored postings. */
  readonly bm25Loads: { readonly file: number; readonly store: number };
}

/** Label of requests that matched no route: raw URLs never become labels (unbounded, and they can carry names). */
const UNMATCHED_ROUTE = "unmatched";

/**
 * The process's Prometheus instruments, on a registry of its own (no global state: two
 * applications in one process, as in tests, keep separate figures). Built by the composition
 * root with the platform and handed to what reports events; gauges that describe stored state
 * (the queue) or memory (the indexes) are sampled when /metrics is scraped. Labels are bounded
 * sets: route templates, statuses, job kinds, providers, outcomes; never organizations, names or ids.
 * With PROCESSES > 1 a scrape merges every process's instruments (cluster-metrics.ts): each
 * instrument's `aggregator` says how (a sum unless it says otherwise).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Histogram({
    name: "context_store_http_request_duration_seconds",
    help: "HTTP requests by method, route template and status: duration in seconds (its _count is the request rate)",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly jobs = new Gauge({
    name: "context_store_jobs",
    help: "Unfinished jobs in the queue (all processes) by kind and state: due (waiting to be claimed), delayed (retries, schedules), running",
    labelNames: ["kind", "state"] as const,
    // Every process reads the same queue: merged across processes, the largest reading, not a sum.
    aggregator: "max",
    registers: [this.registry],
  });
  private readonly oldestDue = new Gauge({
    name: "context_store_job_oldest_due_age_seconds",
    help: "How long the oldest due job of each kind has waited to be claimed (0 when none waits)",
    labelNames: ["kind"] as const,
    aggregator: "max",
    registers: [this.registry],
  });
  private readonly items = new Counter({
    name: "context_store_items_indexed_total",
    help: "Items that reached an indexing stage (in every service process): searchable (chunks and vectors stored), completed (graph built), errored",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly chunks = new Counter({
    name: "context_store_chunks_indexed_total",
    help: "Chunks made searchable (in every service process)",
    registers: [this.registry],
  });
  private readonly embedderBatches = new Histogram({
    name: "context_store_embedder_batch_size",
    help: "Texts per embedding provider call made by the indexing pipeline's batching embedder",
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [this.registry],
  });
  private readonly deliveries = new Counter({
    name: "context_store_webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome: delivered, retrying (failed, another attempt is scheduled), failed (no attempt left)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  private readonly syncs = new Counter({
    name: "context_store_connector_syncs_total",
    help: "Connector sync runs (or run attempts) by provider and outcome",
    labelNames: ["provider", "outcome"] as const,
    registers: [this.registry],
  });
  private readonly queryModelCalls = new Counter({
    name: "context_store_query_model_calls_total",
    help: "Model calls of thinking-mode queries by step (expand, rerank) and outcome (ok, or failed: the query went on with its offline ranking)",
    labelNames: ["step", "outcome"] as const,
    registers: [this.registry],
  });
  private readonly indexBytes = new Gauge({
    name: "context_store_index_memory_bytes",
    help: "Estimated memory of the search indexes (summed over the service processes; each holds its own copy): bm25 (postings) and vector (loaded HNSW indexes, SQLite)",
    labelNames: ["index"] as const,
    registers: [this.registry],
  });
  private readonly vectorRebuilds = new Gauge({
    name: "context_store_vector_index_rebuilds",
    help: "Vector indexes rebuilt from the vectors table since the service processes started (embedded store): a saved file missing or holding deleted keys, or deletions found by a reconcile",
    registers: [this.registry],
  });
  private readonly bm25Loads = new Gauge({
    name: "context_store_search_index_loads",
    help: "BM25 indexes loaded since the service processes started: from the file saved at the last shutdown (file) or from the stored postings (store: no usable file)",
    labelNames: ["from"] as const,
    registers: [this.registry],
  });

  private readonly indexEntries = new Gauge({
    name: "context_store_index_entries",
    help: "Entries held by the search indexes: bm25 postings, vectors (with several processes, the largest process's; each holds its own copy)",
    labelNames: ["index"] as const,
    aggregator: "max",
    registers: [this.registry],
  });
  /**
   * The kinds the queue's gauges report: every kind of the job catalog from the first scrape (an
   * idle queue has no rows to group, and its series read 0 rather than being absent), and any
   * other kind a row names (a job left by another version of the service).
   */
  private readonly kindsSeen = new Set<string>(JOB_KINDS);

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  request(method: string, route: string | undefined, status: number, seconds: number): void {
    this.requests.observe({ method, route: route ?? UNMATCHED_ROUTE, status: String(status) }, seconds);
  }

  itemIndexed(outcome: "searchable" | "completed" | "errored", chunks = 0): void {
    this.items.inc({ outcome });
    if (chunks > 0) this.chunks.inc(chunks);
  }

  embedderBatch(texts: number): void {
    this.embedderBatches.observe(texts);
  }

  webhookDelivery(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  connectorSync(provider: string, outcome: string): void {
    this.syncs.inc({ provider, outcome });
  }

  queryModelCall(step: "expand" | "rerank", outcome: "ok" | "failed"): void {
    this.queryModelCalls.inc({ step, outcome });
  }

  /**
   * Sets the gauges sampled at scrape time. `queue` is null when the store could not be read: the
   * queue's gauges keep their last values then.
   */
  sample(queue: readonly QueueDepth[] | null, memory: IndexMemory, now: number = Date.now()): void {
    if (queue !== null) this.sampleQueue(queue, now);
    this.indexBytes.set({ index: "bm25" }, memory.bm25Bytes);
    this.indexBytes.set({ index: "vector" }, memory.vectorBytes);
    this.indexEntries.set({ index: "bm25" }, memory.bm25Postings);
    this.indexEntries.set({ index: "vector" }, memory.vectors);
    this.vectorRebuilds.set(memory.vectorRebuilds);
    this.bm25Loads.set({ from: "file" }, memory.bm25Loads.file);
    this.bm25Loads.set({ from: "store" }, memory.bm25Loads.store);
  }

  /** The text exposition format of this process's instruments. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** This process's instruments as JSON, for a cluster's merged exposition (see cluster-metrics.ts). */
  snapshot(): Promise<object[]> {
    return this.registry.getMetricsAsJSON();
  }

  private sampleQueue(queue: readonly QueueDepth[], now: number): void {
    for (const d of queue) this.kindsSeen.add(d.kind);
    for (const kind of this.kindsSeen) {
      const d = queue.find((q) => q.kind === kind);
      this.jobs.set({ kind, state: "due" }, d?.due ?? 0);
      this.jobs.set({ kind, state: "delayed" }, d?.delayed ?? 0);
      this.jobs.set({ kind, state: "running" }, d?.running ?? 0);
      const oldest = d?.oldestDueRunAt ?? null;
      this.oldestDue.set({ kind }, oldest === null ? 0 : Math.max(0, now - oldest) / 1000);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
