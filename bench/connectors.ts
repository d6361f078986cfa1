// Connector sync throughput: `npm run bench:connectors` (embedded) or with DATABASE_URL=postgres://...
// A fake workspace of BENCH_OBJECTS (default 10,000) objects: Slack threads (a parent and 4 replies)
// and GitHub issues/PRs with 4 comments each, spread over 60 days. Prints:
// 1. plain ingestion (POST /context/ingest) of the same app items, 202 to searchable, objects/s;
// 2. the connectors' first sync (POST /connectors/{id}/sync) to searchable, objects/s, and the ratio;
// 3. an on-demand incremental sync with nothing changed: time to idle, items re-ingested (embedded);
// 4. the same with 1% of the objects edited at the providers.
// The fake providers run in this process (their CPU counts against the connector figures).

import { loadavg } from "node:os";
import { createApplication } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { objectItem } from "../src/features/connectors/object-items.js";
import { createProviderRegistry } from "../src/features/connectors/registry.js";
import { ConnectorStore, orgOf } from "../src/features/connectors/store.js";
import type { IndexingStatus } from "../src/features/items/item-types.js";
import { createTestDb } from "../test/helpers/test-db.js";
import { BENCH_TOKENS, startBenchWorkspace } from "./connector-workspace.js";
import { enterSystemScope } from "../src/platform/store/row-scope.js";

// A benchmark is an operator's script: it reads and writes the store directly, across organizations.
enterSystemScope();

const OBJECTS = Number(process.env.BENCH_OBJECTS ?? 10_000);
const LOOKBACK_DAYS = 90;
const SEARCHABLE: IndexingStatus[] = ["graph_creation", "completed"];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadAtStart = load();

const ws = await startBenchWorkspace(OBJECTS);
const db = await createTestDb();
const backend = db.databaseUrl ? "postgres" : "sqlite";
const config = loadConfig({
  ...process.env,
  DATA_DIR: db.dataDir,
  LOG_LEVEL: "error",
  ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
  CONNECTOR_SLACK_API_URL: ws.slack.url,
  CONNECTOR_GITHUB_API_URL: ws.github.url,
  CONNECTOR_SECRET_KEY: "bench-connector-secret-0123456789abcdef",
});
const app = await createApplication(config);
app.worker.start();
const org = await app.orgs.createOrganization("bench");
const key = (await app.orgs.createKey(org.id, "bench")).key;
const databaseIds: Record<string, string> = {};
for (const name of ["plain", "conn"]) {
  const d = await app.databases.create(org.id, name, []);
  await app.databases.provision(d.id);
  databaseIds[name] = d.id;
}
const api = async (method: "GET" | "POST", url: string, payload?: unknown): Promise<Record<string, unknown>> => {
  const res = await app.server.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}`, ...(payload !== undefined ? { "content-type": "application/json" } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  if (res.statusCode >= 300 && res.statusCode !== 409) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<Record<string, unknown>>();
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// The observer must not load the system it measures: one COUNT every 50 ms.
const count = async (database: string, statuses: IndexingStatus[], minGeneration = 1): Promise<number> => {
  const row = await app.store.reader
    .selectFrom("context_items")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("database_id", "=", databaseIds[database]!)
    .where("status", "in", statuses)
    .where("generation", ">=", minGeneration)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};
const waitCount = async (database: string, n: number, statuses = SEARCHABLE, minGeneration = 1): Promise<void> => {
  while ((await count(database, statuses, minGeneration)) < n) await sleep(50);
};
const ingestJobs = async (): Promise<number> =>
  Number(
    (
      await app.store.reader
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("kind", "=", "ingest.item")
        .executeTakeFirstOrThrow()
    ).n,
  );

// The connectors, paused while the plain ingestion runs (the scheduler would start them).
const connectors: string[] = [];
for (const [provider, resources] of [
  ["slack", ws.channels],
  ["github", ws.repos],
] as const) {
  const c = await api("POST", "/connectors", { provider, database: "conn", credentials: { access_token: BENCH_TOKENS[provider] } });
  const id = String(c.connector_id);
  await api("POST", `/connectors/${id}/pause`);
  await api("POST", `/connectors/${id}/configure`, { resources: resources.map((r) => ({ resource_id: r })), lookback_days: LOOKBACK_DAYS });
  connectors.push(id);
}

// The same app items the connectors will write, built by the same provider code (not timed).
const providers = createProviderRegistry(config.connectorApiUrls);
const items: Array<Record<string, unknown>> = [];
for (const id of connectors) {
  const s = new ConnectorStore(app.store.db);
  const row = (await s.findForJobAcrossOrganizations(id))!;
  const provider = providers.get(row.provider)!;
  for (const r of await s.listResources(orgOf(row), id)) {
    const ref = { resourceId: r.resource_id, resourceType: r.resource_type, displayName: r.display_name, providerMetadata: null };
    const credentials = { access_token: BENCH_TOKENS[row.provider as "slack" | "github"] };
    const window = provider.openWindow("", Date.now() - LOOKBACK_DAYS * 86_400_000, Date.now());
    let state: unknown = null;
    do {
      const page = await provider.pull({ credentials, resource: ref, window, state, signal: AbortSignal.timeout(60_000) });
      for (const o of page.objects) {
        const { collection: _c, ...raw } = objectItem(row, r, o, null).raw;
        items.push(raw);
      }
      state = page.next ?? null;
    } while (state !== null);
  }
}
if (items.length !== ws.objects) throw new Error(`built ${items.length} items for ${ws.objects} objects`);
await app.pipeline.warmUp(items.slice(0, 64).map((i) => JSON.stringify(i.fields ?? {})));

// 1. Plain ingestion of the same items.
let started = performance.now();
for (let i = 0; i < items.length; i += 500)
  await api("POST", "/context/ingest", { type: "knowledge", database: "plain", app_knowledge: items.slice(i, i + 500) });
await waitCount("plain", items.length);
const plainSeconds = (performance.now() - started) / 1000;
await waitCount("plain", items.length, ["completed"]);

// 2. The connectors' first sync (with its deletion reconciliation, as every on-demand sync).
const idle = async (): Promise<void> => {
  for (;;) {
    const rows = await app.store.reader.selectFrom("connectors").select(["sync_state", "last_error"]).where("id", "in", connectors).execute();
    const failed = rows.find((r) => r.last_error !== "");
    if (failed) throw new Error(`sync failed: ${failed.last_error}`);
    if (rows.every((r) => r.sync_state === "idle")) return;
    await sleep(20);
  }
};
const syncAll = async (): Promise<void> => {
  for (const id of connectors) await api("POST", `/connectors/${id}/sync`);
};
started = performance.now();
for (const id of connectors) await api("POST", `/connectors/${id}/resume`);
await syncAll();
await waitCount("conn", items.length);
const firstSeconds = (performance.now() - started) / 1000;
await idle();
const firstSyncIdle = (performance.now() - started) / 1000;
await waitCount("conn", items.length, ["completed"]);

// 3. Nothing changed.
const generations = async (): Promise<Map<string, number>> =>
  new Map(
    (await app.store.reader.selectFrom("context_items").select(["source_id", "generation"]).where("database_id", "=", databaseIds.conn!).execute()).map((r) => [
      r.source_id,
      Number(r.generation),
    ]),
  );
const changedSince = (before: Map<string, number>, after: Map<string, number>): number => [...after].filter(([id, g]) => before.get(id) !== g).length;
let gens = await generations();
let jobs = await ingestJobs();
started = performance.now();
await syncAll();
await idle();
const noChangeSeconds = (performance.now() - started) / 1000;
const noChangeReingested = changedSince(gens, await generations());
const noChangeEmbedded = (await ingestJobs()) - jobs;

// 4. 1% changed at the providers.
const edits = ws.edit(Math.round(OBJECTS / 100));
gens = await generations();
jobs = await ingestJobs();
started = performance.now();
await syncAll();
await idle();
const oneSyncSeconds = (performance.now() - started) / 1000;
const oneReingested = changedSince(gens, await generations());
while (
  (
    await app.store.reader
      .selectFrom("context_items")
      .select("id")
      .where("database_id", "=", databaseIds.conn!)
      .where("generation", ">", 1)
      .where("status", "in", SEARCHABLE)
      .execute()
  ).length < oneReingested
)
  await sleep(50);
const oneSearchable = (performance.now() - started) / 1000;
const oneEmbedded = (await ingestJobs()) - jobs;

const plainRate = items.length / plainSeconds;
const firstRate = items.length / firstSeconds;
console.log(
  `backend: ${backend}, embedder: ${config.embedding.provider}, objects: ${items.length} (Slack messages ${ws.channels.length} channels, GitHub issues/PRs and comments ${ws.repos.length} repos)`,
);
console.log(`load average at start: ${loadAtStart}; at end: ${load()}`);
console.log(`plain ingestion (POST /context/ingest, 500 per call): searchable in ${plainSeconds.toFixed(1)} s = ${plainRate.toFixed(1)} objects/s`);
console.log(
  `connector first sync: searchable in ${firstSeconds.toFixed(1)} s = ${firstRate.toFixed(1)} objects/s (sync itself idle after ${firstSyncIdle.toFixed(1)} s)`,
);
console.log(`first sync / plain ingestion: ${((firstRate / plainRate) * 100).toFixed(1)}% (target >= 80%)`);
console.log(
  `incremental, nothing changed: ${noChangeSeconds.toFixed(2)} s (target < 5 s), items re-ingested ${noChangeReingested}, embedding jobs ${noChangeEmbedded} (target 0)`,
);
console.log(
  `incremental, ${edits} objects edited (1%): sync ${oneSyncSeconds.toFixed(2)} s, searchable ${oneSearchable.toFixed(2)} s, items re-ingested ${oneReingested}, embedding jobs ${oneEmbedded}`,
);
await app.close();
await ws.close();
await db.drop();
