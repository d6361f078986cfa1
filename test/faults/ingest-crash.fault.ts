import assert from "node:assert/strict";
import { test } from "node:test";
import { startFakeEmbeddingsServer } from "../helpers/fake-embeddings-server.js";
import { eventually } from "../helpers/harness.js";
import { createTestDb } from "../helpers/test-db.js";
import { startReceiver } from "../helpers/webhook-receiver.js";
import { AcceptedModel, loop } from "./accepted-model.js";
import { Cluster, faultRounds, seededRng, sleep } from "./fault-kit.js";
import { contextProblems, deadJobs, openStoreOf, stuckJobs, vectorIndexProblems } from "./store-checks.js";

const KEY = "fault-ingest-key-0123456789abcdefghijkl";
const DATABASE = "faults";
const NAMES = ["Ada Lovelace", "Charles Babbage", "Grace Hopper", "Alan Turing", "Katherine Johnson"];
const PLACES = ["London", "Paris", "Boston", "Geneva"];
const MAX_ITEMS = 400;

/**
 * SIGKILL of the processes running jobs at seeded random moments while a mix of memories, app
 * items and small files is ingested, graphs are built (always on) and terminal statuses are
 * delivered to a webhook receiver that sometimes fails. Then: every accepted item terminal and
 * completed, stored once with its chunks, postings, vectors and graph rows once, every terminal
 * status delivered at least once, no job leased forever, and (SQLite) the saved vector index
 * equal to the vectors table.
 */
test("SIGKILL during ingestion, graph building and webhook delivery: nothing accepted is lost or stored twice", { timeout: 420_000 }, async (t) => {
  const rng = seededRng("ingest, graph building, webhooks");
  const rounds = faultRounds();
  const db = await createTestDb();
  t.after(() => db.drop());
  const embeddings = await startFakeEmbeddingsServer(16);
  t.after(() => embeddings.close());
  const receiver = await startReceiver({ delayMs: rng.int(0, 20), answer: ({ seen }) => (seen === 1 && Math.random() < 0.2 ? 503 : 200) });
  t.after(() => receiver.close());

  const cluster = await Cluster.start(t, db, {
    BOOTSTRAP_API_KEY: KEY,
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_BASE_URL: embeddings.baseUrl,
    EMBEDDING_MODEL: "fake",
    EMBEDDING_DIMENSIONS: "16",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_RETRY_BASE_MS: "50",
    WEBHOOK_RETRY_MAX_MS: "300",
    WARM_UP_INDEXES: "false",
  });
  const headers = { Authorization: `Bearer ${KEY}`, "API-Version": "2" };
  const json = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${cluster.url()}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  assert.equal((await json("POST", "/databases", { database: DATABASE })).status, 202);
  await eventually(async () => {
    const s = await json("GET", `/databases/status?database=${DATABASE}`);
    return (s.body.data as { infra?: { ready_for_ingestion?: boolean } } | undefined)?.infra?.ready_for_ingestion;
  }, 60_000);
  const hook = await json("POST", "/webhooks/indexing", { url: receiver.url });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));

  const model = new AcceptedModel();
  let serial = 0;
  const sentence = (n: number): string =>
    `${NAMES[n % NAMES.length] ?? ""} met ${NAMES[(n + 2) % NAMES.length] ?? ""} in ${PLACES[n % PLACES.length] ?? ""} to discuss engine ${n}. ` +
    `They agreed that item ${n} matters for the project plan.`;
  const batch = async (): Promise<void> => {
    // Bounded work, so the suite's time stays bounded: past the cap the traffic idles.
    if (model.accepted.size + model.uncertain.size >= MAX_ITEMS) return;
    const n = rng.int(3, 12);
    const ids = Array.from({ length: n }, () => `i-${serial++}`);
    const kind = rng.int(0, 2);
    const base = cluster.url();
    if (kind === 0) {
      const memories = ids.map((id, i) => ({ id, text: sentence(serial + i) }));
      await model.offer(ids, () =>
        fetch(`${base}/context/ingest`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({ type: "memory", database: DATABASE, memories }),
        }),
      );
    } else if (kind === 1) {
      const items = ids.map((id, i) => ({ id, type: "note", content: { text: `${sentence(serial + i)} ${sentence(serial + i + 1)}` } }));
      await model.offer(ids, () =>
        fetch(`${base}/context/ingest`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json" },
          body: JSON.stringify({ type: "knowledge", database: DATABASE, app_knowledge: items }),
        }),
      );
    } else {
      const form = new FormData();
      form.append("type", "knowledge");
      form.append("database", DATABASE);
      form.append("document_metadata", JSON.stringify(ids.map((id) => ({ id }))));
      ids.forEach((id, i) => {
        const text = `# Notes ${id}\n\n${sentence(serial + i)}\n\n## Details\n\n${sentence(serial + i + 3)}\n`;
        form.append("files", new Blob([text], { type: "text/markdown" }), `${id}.md`);
      });
      await model.offer(ids, () => fetch(`${base}/context/ingest`, { method: "POST", headers, body: form }));
    }
  };

  const traffic = loop(batch, () => rng.int(100, 400));
  for (let round = 0; round < rounds; round++) {
    // A random point once some work was accepted since the last restart.
    const target = Math.min(MAX_ITEMS / 2, model.accepted.size + rng.int(5, 60));
    await eventually(async () => model.accepted.size >= target, 60_000, 20);
    await sleep(rng.int(0, 1500));
    const started = Date.now();
    await cluster.killAndReplaceWorkers();
    console.log(`[fault] round ${round + 1}: killed and replaced in ${Date.now() - started} ms`);
  }
  await sleep(rng.int(300, 1500));
  await traffic.stop();
  console.log(
    `[fault] ${model.requests} ingest requests, ${model.accepted.size} items accepted, ${model.uncertain.size} uncertain, ${cluster.kills} processes killed`,
  );
  assert.ok(model.accepted.size > 0, "the service accepted work between the kills");
  assert.deepEqual(model.serverErrors(), [], "no 500s: a refusal is 503 SERVICE_UNAVAILABLE");

  const store = openStoreOf(db);
  t.after(() => store.close());
  // Every accepted item terminal, through the API (leases expire, the jobs run again).
  const accepted = [...model.accepted];
  await eventually(
    async () => {
      for (let i = 0; i < accepted.length; i += 500) {
        const r = await json("GET", `/context/status?database=${DATABASE}&ids=${accepted.slice(i, i + 500).join(",")}`);
        const rows = (r.body.data as { statuses: Array<{ indexing_status: string }> }).statuses;
        if (rows.some((s) => s.indexing_status !== "completed" && s.indexing_status !== "errored")) return false;
      }
      return true;
    },
    180_000,
    250,
  );
  // The uncertain ones that were stored, too (the pipeline finishes whatever it stored).
  await eventually(async () => (await contextProblems(store, DATABASE, model)).every((p) => !p.includes("not terminal")), 60_000, 250);
  assert.deepEqual(await contextProblems(store, DATABASE, model), []);
  const items = await store.db.selectFrom("context_items").select(["source_id", "status", "error_code", "message"]).execute();
  assert.deepEqual(
    items.filter((i) => i.status !== "completed"),
    [],
    "every stored item completed (at most three kills per job, four attempts)",
  );

  // Every terminal status delivered at least once (the receiver's log).
  await eventually(
    async () => {
      const delivered = new Set([...receiver.accepted.values()].map((r) => `${String(r.json.item_id)}:${String(r.json.indexing_status)}`));
      return items.every((i) => delivered.has(`${i.source_id}:${i.status}`));
    },
    90_000,
    250,
  );
  assert.deepEqual(await stuckJobs(store, Date.now(), 10_000), [], "no job leased or queued forever");
  assert.deepEqual(await deadJobs(store), []);

  // A query of both corpora loads each vector index in the surviving process (from its file,
  // checked against the table, or rebuilt); the graceful stop then saves what it holds.
  const query = await json("POST", "/query", { database: DATABASE, query: "engine project plan", type: "all", max_results: 3 });
  assert.equal(query.status, 200, JSON.stringify(query.body));
  await cluster.stop();
  assert.deepEqual(await vectorIndexProblems(store, db), [], "the saved vector index holds exactly the vectors table");
  console.log(`[fault] ${items.length} items stored, ${receiver.requests.length} webhook requests received`);
});
