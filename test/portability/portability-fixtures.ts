import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReadyDatabase, eventually, field, type HttpResult, type TestApp } from "../helpers/harness.js";
import { nodeArgs } from "../helpers/child-process.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { makePdf, utf8 } from "../helpers/make-files.js";
import { type TestDb, testDbAt } from "../helpers/test-db.js";
import { connector, expectStatus, SECRET_KEY, SLACK_TOKEN } from "../connectors/connector-fixtures.js";
import type { FakeSlack } from "../helpers/fake-providers/slack.js";

/** The service's settings every app of these tests shares (the target needs the source's secret keys). */
export const appEnv = (slack: FakeSlack): Record<string, string> => ({
  CONNECTOR_SLACK_API_URL: slack.url,
  CONNECTOR_SECRET_KEY: SECRET_KEY,
  WEBHOOK_SECRET_KEY: "portability-webhook-key-0123456789",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
});

/** An embedded (SQLite) store in a new directory, whatever DATABASE_URL says. */
export function sqliteTestDb(): TestDb {
  const dataDir = mkdtempSync(join(tmpdir(), "cs-port-"));
  return testDbAt(dataDir, null);
}

/** The environment that points the CLI's operator commands at a test store. */
export const storeEnv = (db: TestDb): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: db.dataDir, LOG_LEVEL: "silent" };
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  else delete env.DATABASE_URL;
  return env;
};

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `context-store <args>` as a user would (src/cli/main.ts; see nodeArgs). */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs("src/cli/main.ts"), ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export async function cliJson<T>(args: readonly string[], env: NodeJS.ProcessEnv): Promise<T> {
  const run = await runCli(["--json", ...args], env);
  assert.equal(run.code, 0, `context-store ${args.join(" ")} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const MARKDOWN = "# Release process\n\nEvery release of the billing service is tagged on Tuesday.\n\n## Rollback\n\nA rollback uses the previous tag.\n";

/**
 * Fills a source store: a context database `kb` (a Markdown file and a PDF, app items with a
 * thread, metadata and ACLs, memories, a Slack connector's items) and a graph database `g`; then
 * registers the webhook. Returns the connector's id.
 */
export async function populate(t: TestApp, slack: FakeSlack): Promise<{ connectorId: string }> {
  await createReadyDatabase(t, "kb");
  const pdf = await makePdf([["Quarterly revenue grew in the northern region."], ["Hiring plan: two engineers for the billing team."]], "Quarter");
  const files = await ingestMultipart(t, { type: "knowledge", database: "kb" }, [
    { name: "release.md", content: utf8(MARKDOWN), type: "text/markdown" },
    { name: "quarter.pdf", content: pdf, type: "application/pdf" },
  ]);
  assert.equal(files.status, 202, files.text);
  const fileIds = field<Array<{ id: string }>>(files.body, "data.results").map((r) => r.id);
  const items = [
    {
      id: "t-root",
      kind: "message",
      provider: "slack",
      external_id: "1700000000.0001",
      fields: { channel: "C1", user: "U1", text: "The staging billing database is down again, can you look?", thread_ts: "1700000000.0001" },
    },
    {
      id: "t-reply",
      kind: "message",
      provider: "slack",
      external_id: "1700000000.0002",
      fields: { channel: "C1", user: "U2", text: "Restarted the replica, the disk was full.", thread_ts: "1700000000.0001" },
    },
    {
      id: "vacation",
      type: "policy",
      title: "Vacation policy",
      content: { text: "Employees receive thirty days of paid vacation." },
      metadata: { team: "people" },
    },
    { id: "board", type: "memo", title: "Board memo", content: { text: "Confidential vacation budget for the board." }, acl: ["domain:board.example.com"] },
  ];
  const app = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "kb", app_knowledge: JSON.stringify(items) } });
  assert.equal(app.status, 202, app.text);
  const memories = await ingestMultipart(t, {
    type: "memory",
    database: "kb",
    memories: JSON.stringify([
      { id: "seat", text: "I prefer window seats and vegetarian meals on flights" },
      { id: "tz", text: "My time zone is Europe/Oslo; meetings after 16:00 are hard" },
    ]),
  });
  assert.equal(memories.status, 202, memories.text);
  await waitTerminal(t, "kb", [...fileIds, ...items.map((i) => i.id)]);
  await waitTerminal(t, "kb", ["seat", "tz"]);

  slack.addUser({ id: "UADA0001", name: "Ada Lovelace", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  const root = slack.post("C0GENERAL", { user: "UADA0001", text: "The invoice export runs nightly at two" });
  slack.post("C0GENERAL", { user: "UADA0001", text: "Invoices older than a year are archived", threadTs: root });
  const created = expectStatus(
    await t.request("POST", "/connectors", { body: { provider: "slack", database: "kb", credentials: { access_token: SLACK_TOKEN } } }),
    201,
    "create connector",
  );
  const connectorId = String(created.connector_id);
  expectStatus(await t.request("POST", `/connectors/${connectorId}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }] } }), 200, "configure");
  expectStatus(await t.request("POST", `/connectors/${connectorId}/sync`), 202, "sync");
  await eventually(async () => ((await connector(t, connectorId)).lifecycle === "active" ? true : null), 30_000);
  await eventually(async () => {
    const list = await t.request("POST", "/context/list", { body: { database: "kb", page_size: 100 } });
    const rows = field<Array<{ id: string }>>(list.body, "data.sources");
    const ids = rows.map((r) => r.id);
    const statuses = await t.request("GET", "/context/status", { query: { database: "kb", ids: ids.join(",") } });
    return field<Array<{ indexing_status: string }>>(statuses.body, "data.statuses").every((s) => s.indexing_status === "completed");
  }, 30_000);

  const graph = await t.request("POST", "/byog/databases", { body: { database: "g" } });
  assert.equal(graph.status, 200, graph.text);
  for (const q of [
    "CREATE (:Person {name: 'Ada', born: 1815})-[:KNOWS {since: 1833}]->(:Person {name: 'Charles', born: 1791})",
    "MATCH (a:Person {name: 'Ada'}) CREATE (a)-[:WROTE]->(:Paper {title: 'Notes', pages: 65.5})",
    "CREATE INDEX FOR (p:Person) ON (p.name)",
  ]) {
    const res = await t.request("POST", "/byog/query", { body: { database: "g", collection: "people", query: q } });
    assert.equal(res.status, 200, `${q}: ${res.text}`);
  }
  const hook = await t.request("POST", "/webhooks/indexing", { body: { url: "http://127.0.0.1:9/hooks/indexing", generate_signing_secret: true } });
  assert.equal(hook.status < 300, true, hook.text);
  return { connectorId };
}

/**
 * Fields that differ by nature between two answers to the same call, removed before comparing:
 * `meta.request_id` and `meta.latency_ms` (every response), and a file's signed download URL
 * (`presigned_url` and its `url_expires_at`: a token and an expiry made per call; the bytes behind it
 * are compared instead).
 */
const VOLATILE = new Set(["request_id", "latency_ms", "presigned_url", "url_expires_at"]);

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (VOLATILE.has(k)) continue;
    out[k] = stable(v);
  }
  return out;
}

async function answer(res: HttpResult, what: string): Promise<unknown> {
  assert.equal(res.status, 200, `${what}: ${res.text}`);
  return Promise.resolve(stable(res.body));
}

/** The answers a user sees: queries (fast, thinking with graph context, memory, ACL), list totals, a subgraph, Cypher, a file's bytes. */
export async function observe(t: TestApp, key: string): Promise<Record<string, unknown>> {
  const req = (method: string, path: string, body?: unknown, query?: Record<string, string>) => t.request(method, path, { key, body, query });
  const out: Record<string, unknown> = {};
  const queries: Record<string, Record<string, unknown>> = {
    fast: { database: "kb", query: "billing release rollback tag", mode: "fast", max_results: 5 },
    hybrid: { database: "kb", query: "staging database down", mode: "fast", query_by: "hybrid", max_results: 5 },
    thinking: { database: "kb", query: "staging database down replica", mode: "thinking", max_results: 3, graph_context: true },
    pdf: { database: "kb", query: "revenue northern region hiring", max_results: 3 },
    memory: { database: "kb", type: "memory", query: "flight seat preference", max_results: 2 },
    acl: { database: "kb", query: "confidential vacation budget board", acl: ["chair@board.example.com"], max_results: 3 },
    apps: { database: "kb", query: "invoice export nightly", query_apps: true, max_results: 3 },
  };
  for (const [name, body] of Object.entries(queries)) out[`query:${name}`] = await answer(await req("POST", "/query", body), name);
  out["list:knowledge"] = await answer(await req("POST", "/context/list", { database: "kb", page_size: 100 }), "list");
  out["list:memory"] = await answer(await req("POST", "/context/list", { database: "kb", type: "memory", page_size: 100 }), "list memory");
  out.subgraph = await answer(await req("GET", "/context/t-root/subgraph", undefined, { database: "kb" }), "subgraph");
  out.cypher = await answer(
    await req("POST", "/byog/query", {
      database: "g",
      collection: "people",
      query: "MATCH (a:Person)-[r]->(b) RETURN a.name AS a, type(r) AS rel, properties(r) AS props, b AS b ORDER BY a, rel",
    }),
    "cypher",
  );
  const list = await req("POST", "/context/list", { database: "kb", page_size: 100 });
  const md = field<Array<{ id: string; title: string }>>(list.body, "data.sources").find((s) => s.title === "release.md");
  assert.ok(md, "the Markdown file is listed");
  const inspect = await req("GET", "/context/inspect", undefined, { database: "kb", id: md.id });
  out.inspect = await answer(inspect, "inspect");
  const url = field<string>(inspect.body, "data.presigned_url");
  const file = await fetch(new URL(url, t.baseUrl));
  assert.equal(file.status, 200);
  out.file = createHash("sha256")
    .update(new Uint8Array(await file.arrayBuffer()))
    .digest("hex");
  return out;
}

/**
 * `actual` with each `relevancy_score` that is within `tolerance` of the same place in `expected`
 * replaced by the expected value. Moving a store between backends keeps every vector, but the
 * dense scores are computed by pgvector on PostgreSQL from the stored f32 vectors and by usearch on
 * SQLite from its index's f16 copies: a score of 0.198546 on one was 0.198528 on the other.
 * Everything else (chunks, order, every other field) must be equal.
 */
export function withScoresOf(actual: unknown, expected: unknown, tolerance = 1e-4): unknown {
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((a, i) => withScoresOf(a, expected[i], tolerance));
  if (isRecord(actual) && isRecord(expected)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(actual)) {
      const want = expected[key];
      out[key] =
        key === "relevancy_score" && typeof value === "number" && typeof want === "number" && Math.abs(value - want) <= tolerance
          ? want
          : withScoresOf(value, want, tolerance);
    }
    return out;
  }
  return actual;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The ids an import gives anew: row ids (UUIDs) and the context graph's hashed entity and relationship ids. */
const GENERATED = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:ent|rel)_[0-9a-f]{24})$/;

/**
 * `value` with each generated id (in keys and values) replaced by its order of first appearance
 * (`#1`, `#2`, ...): two answers are the same up to a consistent renaming of their ids when their
 * canonical forms are equal. An import gives chunks, items and entities new ids, and nothing else.
 */
export function canonicalIds(value: unknown, seen: Map<string, string> = new Map()): unknown {
  const token = (s: string): string => {
    if (!GENERATED.test(s)) return s;
    let t = seen.get(s);
    if (t === undefined) seen.set(s, (t = `#${seen.size + 1}`));
    return t;
  };
  if (typeof value === "string") return token(value);
  if (Array.isArray(value)) return value.map((v) => canonicalIds(v, seen));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[token(k)] = canonicalIds(v, seen);
  return out;
}

/** Fields of answers that carry ids an import makes anew (chunks', and the graph's hashed entity ids). */
const NEW_ID_FIELDS = new Set(["chunk_uuid", "chunk_id", "source_chunk_ids", "entity_id", "source_entity_id", "target_entity_id"]);

/** The chunk and entity ids anywhere in `value` (public source ids, which an import keeps, are not among them). */
export function chunkAndEntityIdsIn(value: unknown, out: Set<string> = new Set(), field = ""): Set<string> {
  if (typeof value === "string") {
    if (NEW_ID_FIELDS.has(field) && GENERATED.test(value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) chunkAndEntityIdsIn(v, out, field);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) chunkAndEntityIdsIn(v, out, k);
  }
  return out;
}
