import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";
import { backendUnderTest } from "../helpers/test-db.js";
import { SLACK_TOKEN } from "../connectors/connector-fixtures.js";
import { FakeSlack } from "../helpers/fake-providers/slack.js";
import { DATABASE_TABLES } from "../../src/features/portability/table-plan.js";
import { ID_COLUMNS } from "../../src/features/portability/id-columns.js";
import type { Store } from "../../src/platform/store/db.js";
import { appEnv, canonicalIds, cliJson, populate, storeEnv } from "./portability-fixtures.js";

type Row = Record<string, unknown>;

/** Every row of an organization's databases, table by table, in a stable order. */
async function rowsOf(store: Store, orgId: string): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const { table } of DATABASE_TABLES) {
    const { rows } = await sql<Row>`SELECT * FROM ${sql.table(table)} WHERE org_id = ${orgId}`.execute(store.db);
    out[table] = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Uint8Array ? Buffer.from(v).toString("base64") : v])));
    out[table].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

/** The ids the service generated for an organization's rows (own ids of every table, and the organization's). */
function generatedIds(rows: Record<string, Row[]>, orgId: string): Set<string> {
  const ids = new Set([orgId]);
  for (const [table, list] of Object.entries(rows)) {
    for (const column of (ID_COLUMNS[table] ?? []).filter((c) => c.own)) for (const row of list) ids.add(String(row[column.column]));
  }
  return ids;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** What a user of the imported database sees: fast and hybrid queries, the list, an item with its file. */
async function answers(t: TestApp, key: string): Promise<Record<string, unknown>> {
  const req = (method: string, path: string, body?: unknown, query?: Record<string, string>) => t.request(method, path, { key, body, query });
  const out: Record<string, unknown> = {};
  for (const [name, body] of Object.entries({
    fast: { database: "kb", query: "billing release rollback tag", max_results: 5 },
    hybrid: { database: "kb", query: "staging database down", query_by: "hybrid", max_results: 5 },
    thinking: { database: "kb", query: "staging database down replica", mode: "thinking", max_results: 3, graph_context: true },
    apps: { database: "kb", query: "invoice export nightly", query_apps: true, max_results: 3 },
  })) {
    const res = await req("POST", "/query", body);
    assert.equal(res.status, 200, res.text);
    out[name] = field(res.body, "data.chunks");
  }
  const list = await req("POST", "/context/list", { database: "kb", page_size: 100 });
  out.list = field(list.body, "data.sources");
  const md = field<Array<{ id: string; title: string }>>(list.body, "data.sources").find((s) => s.title === "release.md");
  assert.ok(md);
  const inspect = await req("GET", "/context/inspect", undefined, { database: "kb", id: md.id });
  const file = await fetch(new URL(field<string>(inspect.body, "data.presigned_url"), t.baseUrl));
  assert.equal(file.status, 200);
  out.file = (await file.text()).slice(0, 40);
  return out;
}

describe(`an archive of organization A imported into organization B, of the same store and of another (${backendUnderTest()})`, () => {
  let slack: FakeSlack;
  let source: TestApp;
  let other: TestApp;
  let orgB: { key: string; orgId: string };
  let rowsA: Record<string, Row[]>;
  let answersA: Record<string, unknown>;
  const dir = mkdtempSync(join(tmpdir(), "cs-into-org-"));
  const archive = join(dir, "kb.tar.gz");

  before(async () => {
    slack = await FakeSlack.start({ token: SLACK_TOKEN });
    source = await startTestApp(appEnv(slack));
    await populate(source, slack);
    // Organization A is the key's (the store has another, B, by then).
    orgB = await source.newOrgKey();
    const exported = await cliJson<{ organization: { id: string; how: string } }>(["export", "--database", "kb", "--out", archive], {
      ...storeEnv(source.db),
      CONTEXT_STORE_API_KEY: source.key,
    });
    assert.deepEqual(exported.organization, { id: source.orgId, how: "key" });
    rowsA = await rowsOf(source.app.store, source.orgId);
    answersA = await answers(source, source.key);
    const intoB = await cliJson<{ database: { org_id: string }; organization: { how: string } }>(["import", "--in", archive], {
      ...storeEnv(source.db),
      CONTEXT_STORE_API_KEY: orgB.key,
    });
    assert.equal(intoB.database.org_id, orgB.orgId);
    assert.equal(intoB.organization.how, "key");
    other = await startTestApp(appEnv(slack));
    await cliJson(["import", "--in", archive, "--org", other.orgId], storeEnv(other.db));
  });
  after(async () => {
    await other?.close();
    await source?.close();
    await slack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("every row of B references only B's databases, and none of A's ids", async () => {
    const fromA = generatedIds(rowsA, source.orgId);
    for (const [store, orgId] of [
      [source.app.store, orgB.orgId],
      [other.app.store, other.orgId],
    ] as const) {
      const rows = await rowsOf(store, orgId);
      const databases = new Set(rows.databases?.map((d) => String(d.id)));
      assert.equal(databases.size, 1);
      assert.equal(rows.context_items?.length, rowsA.context_items?.length, "B holds as many items as A");
      for (const [table, list] of Object.entries(rows)) {
        for (const row of list) {
          if (table !== "databases") assert.ok(databases.has(String(row.database_id)), `${table} row of B in database ${String(row.database_id)}`);
          for (const [column, value] of Object.entries(row)) {
            const reused = typeof value === "string" ? (value.match(UUID) ?? []).filter((id) => fromA.has(id)) : [];
            assert.deepEqual(reused, [], `${table}.${column} of B holds A's id`);
          }
        }
      }
      // No row of the store outside B's databases carries B's organization, nor B's databases another's.
      for (const { table } of DATABASE_TABLES) {
        if (table === "databases") continue;
        const { rows: stray } = await sql<Row>`SELECT count(*) AS n FROM ${sql.table(table)}
          WHERE (org_id = ${orgId}) <> (database_id IN (SELECT id FROM databases WHERE org_id = ${orgId}))`.execute(store.db);
        assert.equal(Number(stray[0]?.n), 0, `${table}: rows whose organization and database disagree`);
      }
    }
  });

  test("A's rows are as they were", async () => {
    assert.deepEqual(await rowsOf(source.app.store, source.orgId), rowsA);
  });

  test("queries in B (both stores) find the items and answer as A's did, with B's ids", async () => {
    for (const [t, key] of [
      [source, orgB.key],
      [other, other.key],
    ] as const) {
      const got = await answers(t, key);
      assert.deepEqual(canonicalIds(got), canonicalIds(answersA));
      assert.ok((got.fast as unknown[]).length > 0);
    }
  });
});
