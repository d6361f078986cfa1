import assert from "node:assert/strict";
import { test } from "node:test";
import { createTestDb } from "../helpers/test-db.js";
import { AcceptedModel, loop } from "./accepted-model.js";
import { Cluster, faultRounds, seededRng, sleep } from "./fault-kit.js";
import { eventually } from "../helpers/harness.js";

const KEY = "fault-graph-key-0123456789abcdefghijklmn";
const MAX_WRITES = 300;

/**
 * SIGKILL of a process serving the graph area at seeded random moments while two clients
 * write Cypher (CREATE of a node, MERGE of a node, CREATE of a pattern with a relationship).
 * After the restart: every write answered 200 is there exactly once, an unanswered one at most
 * once, and a MERGE retried after the restart leaves one node.
 */
test("SIGKILL during graph-area writes: accepted writes present exactly once after restart", { timeout: 300_000 }, async (t) => {
  const rng = seededRng("graph-area writes");
  const rounds = faultRounds();
  const db = await createTestDb();
  t.after(() => db.drop());
  const cluster = await Cluster.start(t, db, { BOOTSTRAP_API_KEY: KEY }, { workers: false });
  const post = (base: string, path: string, body: unknown): Promise<Response> =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEY}`, "API-Version": "2", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const rows = async (query: string): Promise<Array<Record<string, unknown>>> => {
    const res = await post(cluster.url(), "/byog/query", { database: "g", collection: "c", query, params: {} });
    const body = (await res.json()) as { data?: unknown };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.ok(Array.isArray(body.data));
    return body.data as Array<Record<string, unknown>>;
  };
  assert.equal((await post(cluster.url(), "/byog/databases", { database: "g" })).status, 200);

  const model = new AcceptedModel();
  const merges = new Set<string>();
  let serial = 0;
  const write = async (): Promise<void> => {
    if (model.accepted.size + model.uncertain.size >= MAX_WRITES) return;
    const k = `w${serial++}`;
    const kind = rng.int(0, 2);
    const query = kind === 0 ? "CREATE (:W {k: $k})" : kind === 1 ? "MERGE (:M {k: $k})" : "CREATE (:P {k: $k})-[:R {k: $k}]->(:Q {k: $k})";
    if (kind === 1) merges.add(k);
    const base = cluster.url();
    await model.offer([k], () => post(base, "/byog/query", { database: "g", collection: "c", query, params: { k } }));
  };
  const writers = [loop(write, () => rng.int(5, 60)), loop(write, () => rng.int(5, 60))];
  for (let round = 0; round < rounds; round++) {
    const target = Math.min(MAX_WRITES / 2, model.accepted.size + rng.int(5, 50));
    await eventually(async () => model.accepted.size >= target, 60_000, 10);
    await sleep(rng.int(0, 500));
    await cluster.killAndReplaceOneApi(rng);
  }
  await sleep(rng.int(100, 800));
  await Promise.all(writers.map((w) => w.stop()));
  console.log(`[fault] ${model.requests} writes sent, ${model.accepted.size} accepted, ${model.uncertain.size} unanswered, ${cluster.kills} processes killed`);
  assert.ok(model.accepted.size > 0);
  assert.deepEqual(model.serverErrors(), [], "no 500s: a refusal is 503 SERVICE_UNAVAILABLE");

  // A client retries its unanswered MERGEs: idempotent, so still one node each.
  for (const k of merges)
    if (model.uncertain.has(k))
      assert.equal((await post(cluster.url(), "/byog/query", { database: "g", collection: "c", query: "MERGE (:M {k: $k})", params: { k } })).status, 200);

  const counts = new Map<string, number>();
  const count = (label: string, key: unknown): void => {
    const id = `${label}:${String(key)}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  };
  for (const r of await rows("MATCH (n:W) RETURN n.k AS k")) count("W", r.k);
  for (const r of await rows("MATCH (n:M) RETURN n.k AS k")) count("M", r.k);
  for (const r of await rows("MATCH (p:P)-[r:R]->(q:Q) WHERE p.k = r.k AND q.k = r.k RETURN r.k AS k")) count("R", r.k);
  const p = await rows("MATCH (n:P) RETURN count(n) AS n");
  const q = await rows("MATCH (n:Q) RETURN count(n) AS n");
  const rels = await rows("MATCH ()-[r]->() RETURN count(r) AS n");
  const problems: string[] = [];
  const labelOf = new Map<string, string>();
  for (const [id] of counts) labelOf.set(id.slice(2), id.slice(0, 1));
  for (const [id, n] of counts) if (n > 1) problems.push(`${id} stored ${n} times`);
  const allowed = model.allowed();
  for (const [id] of counts) if (!allowed.has(id.slice(2))) problems.push(`${id} stored but never sent`);
  for (const k of model.accepted) if (!labelOf.has(k)) problems.push(`accepted write ${k} lost`);
  for (const k of merges) if (model.uncertain.has(k) && !counts.has(`M:${k}`)) problems.push(`retried MERGE ${k} missing`);
  const patterns = [...counts.keys()].filter((id) => id.startsWith("R:")).length;
  if (Number(p[0]?.n) !== patterns || Number(q[0]?.n) !== patterns || Number(rels[0]?.n) !== patterns)
    problems.push(
      `patterns: ${patterns} complete, ${String(p[0]?.n)} P nodes, ${String(q[0]?.n)} Q nodes, ${String(rels[0]?.n)} relationships (a partial write)`,
    );
  assert.deepEqual(problems, []);
  await cluster.stop();
});
