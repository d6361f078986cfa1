import assert from "node:assert/strict";
import { sql } from "kysely";
import { test } from "node:test";
import { FakeSlack } from "../helpers/fake-providers/slack.js";
import type { Executor, Store } from "../../src/platform/store/db.js";
import { ROW_SECURITY_ROLE } from "../../src/platform/store/row-security.js";
import { inOrgScope, inSystemScope, outsideAnyScope } from "../../src/platform/store/row-scope.js";
import { email, githubIssue, slackThread } from "../context-graph/graph-fixtures.js";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { FAST_RETRIES } from "../helpers/webhook-fixtures.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

const SLACK_TOKEN = "xoxb-fake-token";
/** An item that links to another (a row of context_graph_links). */
const LINKED = {
  id: "linked",
  type: "document",
  title: "linked",
  content: { text: "Ada Lovelace works at Acme Corp." },
  relations: { ids: ["gmail:email:msg-1"] },
};

/** Tables that hold no organization's data (tenant-columns.test.ts); organizations is secured on its id. */
const PLATFORM_TABLES = new Set(["schema_migrations", "jobs", "settings"]);

function ok(res: { status: number; text: string }, status: number, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.text}`);
}

/** One organization's data in every tenant table, written through the HTTP API. */
async function populate(t: TestApp, key: string, slackUrl: string, receiverUrl: string): Promise<void> {
  await createReadyDatabase(t, "db", {}, key);
  ok(await t.request("POST", "/webhooks/indexing", { body: { url: receiverUrl, generate_signing_secret: true }, key }), 200, "webhook");
  // App items with people, mentions and relations (the context graph), and a file (a blob).
  const items = await t.request("POST", "/context/ingest", {
    body: { type: "knowledge", database: "db", app_knowledge: JSON.stringify([...slackThread, email, githubIssue, LINKED]) },
    key,
  });
  ok(items, 202, "ingest items");
  const file = await ingestMultipart(
    t,
    { type: "knowledge", database: "db", document_metadata: JSON.stringify([{ id: "notes" }]) },
    [{ name: "notes.md", content: "# Notes\n\nAda Lovelace met Grace Hopper in London.", type: "text/markdown" }],
    key,
  );
  ok(file, 202, "ingest file");
  const ids = [...field<Array<{ id: string }>>(items.body, "data.results").map((r) => r.id), "notes"];
  const rows = await waitTerminal(t, "db", ids, undefined, 60_000, key);
  assert.ok(
    rows.every((r) => r.indexing_status === "completed"),
    JSON.stringify(rows),
  );
  // A query (the query log) and feedback on it.
  const query = await t.request("POST", "/query", { body: { database: "db", query: "quarterly report" }, key });
  ok(query, 200, "query");
  ok(await t.request("POST", "/feedback", { body: { request_id: field<string>(query.body, "meta.request_id"), feedback: "useful" }, key }), 201, "feedback");
  // A connector that synced a channel.
  const created = await t.request("POST", "/connectors", { body: { provider: "slack", database: "db", credentials: { access_token: SLACK_TOKEN } }, key });
  ok(created, 201, "connector");
  const connector = String(created.body.connector_id);
  ok(await t.request("POST", `/connectors/${connector}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }] }, key }), 200, "configure");
  ok(await t.request("POST", `/connectors/${connector}/sync`, { key }), 202, "sync");
  const synced = await eventually(async () => {
    const record = (await t.request("GET", `/connectors/${connector}`, { key })).body;
    return record.sync_status === "idle" ? record : null;
  });
  assert.equal(synced.last_error, "", JSON.stringify(synced));
  // A graph collection with nodes, a relationship and an index.
  ok(await t.request("POST", "/byog/databases", { body: { database: "g" }, key }), 200, "graph database");
  for (const query of ["CREATE (:Person {name: 'Ada'})-[:KNOWS]->(:Person {name: 'Grace'})", "CREATE INDEX FOR (p:Person) ON (p.name)"]) {
    ok(await t.request("POST", "/byog/query", { body: { database: "g", collection: "people", query }, key }), 200, query);
  }
}

async function tenantTables(store: Store): Promise<string[]> {
  const rows =
    store.backend === "postgres"
      ? await sql<{ table_name: string }>`
          SELECT DISTINCT table_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND column_name = 'org_id'`.execute(store.db)
      : await sql<{ table_name: string }>`
          SELECT DISTINCT m.name AS table_name FROM sqlite_master m, pragma_table_info(m.name) p
          WHERE m.type = 'table' AND p.name = 'org_id'`.execute(store.db);
  return rows.rows
    .map((r) => r.table_name)
    .filter((t) => !PLATFORM_TABLES.has(t))
    .sort();
}

/** The organizations a table's rows belong to, as a query with no organization condition sees them. */
async function orgsSeen(db: Executor, table: string): Promise<string[]> {
  const column = table === "organizations" ? "id" : "org_id";
  const rows = await sql<{ org: string }>`SELECT DISTINCT ${sql.ref(column)} AS org FROM ${sql.table(table)}`.execute(db);
  return rows.rows.map((r) => r.org).sort();
}

test("row-level security: a query that forgets its organization condition sees only its scope's rows", { timeout: 240_000 }, async (tt) => {
  const slack = await FakeSlack.start({ token: SLACK_TOKEN });
  tt.after(() => slack.close());
  slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  slack.post("C0GENERAL", { user: "UADA0001", text: "Release 4.2 checklist" });
  const receiver = await startReceiver();
  tt.after(() => receiver.close());
  const t = await startTestApp({ ...FAST_RETRIES, CONNECTOR_SLACK_API_URL: slack.url, CONNECTOR_SECRET_KEY: "connector-test-key-0123456789abcdef" });
  tt.after(() => t.close());
  const a = { key: t.key, orgId: t.orgId };
  const b = await t.newOrgKey();
  await populate(t, a.key, slack.url, receiver.url);
  await populate(t, b.key, slack.url, receiver.url);

  const store = t.app.store;
  const tables = [...(await inSystemScope(() => tenantTables(store))), "organizations"];
  assert.ok(tables.length > 20, tables.join());
  const both = [a.orgId, b.orgId].sort();
  // Both organizations hold rows in every tenant table (graph building and deliveries finish in the background).
  await inSystemScope(() =>
    eventually(async () => {
      for (const table of tables) {
        const seen = await orgsSeen(store.db, table);
        if (!both.every((o) => seen.includes(o))) return false;
      }
      return true;
    }, 60_000),
  ).catch(async () => {
    const missing = await inSystemScope(async () => {
      const out: string[] = [];
      for (const table of tables) out.push(`${table}: ${(await orgsSeen(store.db, table)).join(",")}`);
      return out;
    });
    assert.fail(`not every tenant table holds both organizations' rows:\n${missing.join("\n")}`);
  });

  const security = await store.enforceRowSecurity();
  if (store.backend === "sqlite") {
    // SQLite has no row security: one process, and every store query carries its own
    // organization condition. What this proves here: the scopes exist and change nothing.
    assert.deepEqual(security, { mode: "none" });
    for (const table of tables) assert.deepEqual(await inOrgScope(b.orgId, () => orgsSeen(store.db, table)), both, table);
    return;
  }
  assert.deepEqual(security, { mode: "assumed-role", loginRole: "postgres", role: ROW_SECURITY_ROLE });
  for (const table of tables) {
    assert.deepEqual(await inSystemScope(() => orgsSeen(store.db, table)), both, `${table}: system scope sees every organization`);
    assert.deepEqual(await inOrgScope(b.orgId, () => orgsSeen(store.db, table)), [b.orgId], `${table}: org B's scope sees only B's rows`);
    assert.deepEqual(await inOrgScope(b.orgId, () => store.transaction((tx) => orgsSeen(tx, table))), [b.orgId], `${table}: so does a transaction`);
    assert.deepEqual(await inOrgScope(a.orgId, () => store.snapshot((tx) => orgsSeen(tx, table))), [a.orgId], `${table}: and a snapshot in A's scope`);
    assert.deepEqual(await outsideAnyScope(() => orgsSeen(store.db, table)), [], `${table}: no scope sees nothing`);
  }
  // Updates and deletes without an organization condition touch only the scope's rows.
  const ofB = async (table: "databases" | "feedback"): Promise<number> =>
    (await inSystemScope(() => store.db.selectFrom(table).select("org_id").where("org_id", "=", b.orgId).execute())).length;
  const bDatabases = await ofB("databases");
  assert.ok(bDatabases > 0);
  const touched = await inOrgScope(b.orgId, () => sql`UPDATE databases SET updated_at = updated_at`.execute(store.db));
  assert.equal(Number(touched.numAffectedRows), bDatabases, "B's databases only");
  const bFeedback = await ofB("feedback");
  const deleted = await inOrgScope(b.orgId, () => sql`DELETE FROM feedback`.execute(store.db));
  assert.equal(Number(deleted.numAffectedRows), bFeedback, "B's feedback only");
  assert.deepEqual(await inSystemScope(() => orgsSeen(store.db, "feedback")), [a.orgId]);
});

test("row-level security: writing another organization's row from an organization's scope fails", async (tt) => {
  const t = await startTestApp();
  tt.after(() => t.close());
  const b = await t.newOrgKey();
  const store = t.app.store;
  const insert = (orgId: string, db: Executor = store.db) =>
    sql`INSERT INTO query_log (org_id, request_id, database_name, collection, created_at) VALUES (${orgId}, ${`r-${orgId}`}, NULL, NULL, ${Date.now()})`.execute(
      db,
    );
  if (store.backend === "sqlite") {
    // No row security on SQLite: the insert goes through; what isolates organizations there is the stores' own conditions.
    await inOrgScope(b.orgId, () => insert(t.orgId));
    assert.equal((await store.db.selectFrom("query_log").select("org_id").execute()).length, 1);
    return;
  }
  await assert.rejects(
    inOrgScope(b.orgId, () => insert(t.orgId)),
    /row-level security/,
  );
  await assert.rejects(
    inOrgScope(b.orgId, () => store.transaction((tx) => insert(t.orgId, tx))),
    /row-level security/,
  );
  await assert.rejects(
    outsideAnyScope(() => insert(t.orgId)),
    /row-level security/,
    "no scope cannot write either",
  );
  // Moving one's own row to another organization is refused too.
  await inOrgScope(b.orgId, () => insert(b.orgId));
  await assert.rejects(
    inOrgScope(b.orgId, () => sql`UPDATE query_log SET org_id = ${t.orgId}`.execute(store.db)),
    /row-level security/,
  );
  await inOrgScope(t.orgId, () => insert(t.orgId));
  assert.deepEqual(await inSystemScope(() => orgsSeen(store.db, "query_log")), [b.orgId, t.orgId].sort());
});

test("row-level security: every table with org_id has a forced policy (a new tenant table needs its own)", async (tt) => {
  const t = await startTestApp();
  tt.after(() => t.close());
  const store = t.app.store;
  if (store.backend === "sqlite") {
    assert.deepEqual(await store.enforceRowSecurity(), { mode: "none" }, "SQLite has no row security to check");
    return;
  }
  const tables = await tenantTables(store);
  const secured = await sql<{ relname: string }>`
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relrowsecurity AND c.relforcerowsecurity
      AND EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = n.nspname AND p.tablename = c.relname)`.execute(store.db);
  const names = new Set(secured.rows.map((r) => r.relname));
  assert.deepEqual(
    [...tables, "organizations"].filter((table) => !names.has(table)),
    [],
    "tables without a forced row-level security policy",
  );
  // The pooled connections act as a role that row security applies to.
  const who = await sql<{ u: string; bypass: boolean; superuser: boolean }>`
    SELECT current_user AS u, rolbypassrls AS bypass, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user`.execute(store.db);
  assert.deepEqual(who.rows, [{ u: ROW_SECURITY_ROLE, bypass: false, superuser: false }]);
});
