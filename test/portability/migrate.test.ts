import assert from "node:assert/strict";
import { copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startTestApp, type TestApp } from "../helpers/harness.js";
import { backendUnderTest, createTestDb, type TestDb } from "../helpers/test-db.js";
import { SLACK_TOKEN } from "../connectors/connector-fixtures.js";
import { FakeSlack } from "../helpers/fake-providers/slack.js";
import { appEnv, cliJson, observe, populate, runCli, sqliteTestDb, withScoresOf } from "./portability-fixtures.js";

interface Migrated {
  tables: Array<{ table: string; source: number; copied: number; target: number }>;
}

const where = (db: TestDb): string => db.databaseUrl ?? db.dataDir;

/** What an operator does when a PostgreSQL store is an end of the move: the target's processes get the source's master key. */
function giveMasterKey(from: TestDb, to: TestDb): void {
  const target = join(to.dataDir, "secret.key");
  if (!existsSync(target)) copyFileSync(join(from.dataDir, "secret.key"), target);
}

describe(`migrate a whole store (source: ${backendUnderTest()})`, () => {
  let slack: FakeSlack;
  let sourceDb: TestDb;
  let sourceKey: string;
  let expected: Record<string, unknown>;
  const stores: TestDb[] = [];

  before(async () => {
    slack = await FakeSlack.start({ token: SLACK_TOKEN });
    sourceDb = await createTestDb();
    const source = await startTestApp(appEnv(slack), sourceDb);
    await populate(source, slack);
    expected = await observe(source, source.key);
    sourceKey = source.key;
    // An operator stops the service before moving its store.
    await source.close();
  });
  after(async () => {
    for (const db of stores) await db.drop();
    await sourceDb?.drop();
    await slack?.close();
  });

  /** Migrates `from` into a new empty store, starts the service there and compares its answers with the source's. */
  async function migrateAndCompare(from: TestDb, to: TestDb): Promise<void> {
    stores.push(to);
    const result = await cliJson<Migrated>(["migrate", "--from", where(from), "--to", where(to)], process.env);
    // Between two data directories the key file travels; with PostgreSQL at either end the operator carries it.
    if (from.databaseUrl === null && to.databaseUrl === null) assert.ok(existsSync(join(to.dataDir, "secret.key")), "the key file travelled");
    else giveMasterKey(from, to);
    const byTable = new Map(result.tables.map((t) => [t.table, t]));
    for (const table of ["organizations", "api_keys", "context_items", "context_chunks", "context_vectors", "graph_nodes", "connectors"]) {
      const row = byTable.get(table);
      assert.ok(row && row.source > 0 && row.copied === row.source && row.target === row.source, `${table}: ${JSON.stringify(row)}`);
    }
    let target: TestApp | undefined;
    try {
      target = await startTestApp(appEnv(slack), to);
      // The source's API key works: key hashes moved with their organization.
      const actual = await observe(target, sourceKey);
      // Across backends the dense scores may differ in the 5th decimal (withScoresOf); nothing else may.
      for (const name of Object.keys(expected))
        assert.deepEqual(withScoresOf(actual[name], expected[name]), expected[name], `${name} differs after migrate ${where(from)} -> ${where(to)}`);
    } finally {
      await target?.close();
    }
  }

  if (backendUnderTest() === "sqlite") {
    test("SQLite -> another SQLite data directory: same answers", async () => {
      await migrateAndCompare(sourceDb, sqliteTestDb());
    });
  } else {
    test("PostgreSQL -> SQLite, then that SQLite -> PostgreSQL: same answers after each move", async () => {
      const embedded = sqliteTestDb();
      await migrateAndCompare(sourceDb, embedded);
      await migrateAndCompare(embedded, await createTestDb());
    });
  }

  test("a target that is not empty is refused, and nothing is written", async () => {
    const used = stores[0];
    assert.ok(used, "a store migrated into by the test before");
    const refused = await runCli(["migrate", "--from", where(sourceDb), "--to", where(used)], process.env);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /the target store is not empty/);
    const target = await startTestApp(appEnv(slack), used);
    try {
      const list = await target.request("POST", "/context/list", { key: sourceKey, body: { database: "kb", page_size: 100 } });
      assert.deepEqual(list.body.data, (expected["list:knowledge"] as { data: unknown }).data);
    } finally {
      await target.close();
    }
  });
});
