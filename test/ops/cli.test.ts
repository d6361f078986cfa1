import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { nodeArgs } from "../helpers/child-process.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import Database from "better-sqlite3";
import { join } from "node:path";
import { openStore } from "../../src/platform/store/db.js";

let db: TestDb;
before(async () => {
  db = await createTestDb();
});
after(async () => db.drop());

function cli(...args: string[]): { code: number; out: string; err: string } {
  const res = spawnSync(process.execPath, [...nodeArgs("src/cli/main.ts"), ...args], {
    env: { ...process.env, DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? "" },
    encoding: "utf8",
    // A CLI that hangs is killed, and the test fails, rather than the run hanging.
    timeout: 60_000,
    killSignal: "SIGKILL",
  });
  return { code: res.status ?? -1, out: res.stdout.trim(), err: res.stderr.trim() };
}

test("context-store CLI: organizations and keys that the service accepts, revocation, config", async () => {
  const org = cli("org", "create", "--name", "acme", "--json");
  assert.equal(org.code, 0, org.err);
  const orgId = (JSON.parse(org.out) as { id: string }).id;
  const created = cli("key", "create", "--org", orgId, "--name", "ci", "--json");
  assert.equal(created.code, 0, created.err);
  const { key, id } = JSON.parse(created.out) as { key: string; id: string };
  assert.match(key, /^csk_/);

  const listed = JSON.parse(cli("key", "list", "--org", orgId, "--json").out) as Array<{ id: string; state: string; prefix: string }>;
  assert.deepEqual(
    listed.map((k) => [k.id, k.state]),
    [[id, "active"]],
  );
  assert.ok(!key.startsWith(listed[0]!.prefix) || listed[0]!.prefix.length < key.length);

  let t: TestApp = await startTestApp({}, db);
  try {
    await createReadyDatabase(t, "cli_db", {}, key);
  } finally {
    await t.close();
  }
  assert.equal(cli("key", "revoke", "--id", id).code, 0);
  assert.equal(cli("key", "revoke", "--id", id).code, 2, "revoking twice is an error");
  t = await startTestApp({}, db);
  try {
    const res = await t.request("GET", "/databases", { key });
    assert.equal(res.status, 401);
  } finally {
    await t.close();
  }

  const config = cli("config", "--json");
  assert.equal(config.code, 0, config.err);
  const shown = JSON.parse(config.out) as { port: number; backend: string; dataDir: string };
  assert.equal(shown.backend, db.databaseUrl ? "postgres" : "sqlite");
  assert.equal(shown.dataDir, db.dataDir);
  assert.equal(cli("key", "create").code, 2, "missing --org is a usage error");
  assert.equal(cli("nonsense").code, 2);
});

test("store compact: free pages go back to the file system (SQLite), VACUUM ANALYZE (PostgreSQL); a store in use is reported, not waited on forever", async () => {
  // 2,000 rows of 16 KB written and deleted: about 32 MB of free pages on SQLite.
  const store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, poolSize: 1 });
  try {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ name: `compact-test:${i}`, value: "x".repeat(16_384), created_at: Date.now() }));
    for (let i = 0; i < rows.length; i += 200)
      await store.db
        .insertInto("settings")
        .values(rows.slice(i, i + 200))
        .execute();
    await store.db.deleteFrom("settings").where("name", "like", "compact-test:%").execute();
  } finally {
    await store.close();
  }
  const run = cli("store", "compact", "--json");
  assert.equal(run.code, 0, run.err);
  type Space = { backend: string; bytes: number; freeBytes: number | null };
  const { before, after } = JSON.parse(run.out) as { before: Space; after: Space };
  if (db.databaseUrl) {
    assert.equal(before.backend, "postgres");
    assert.equal(before.freeBytes, null);
    assert.ok(after.bytes > 0);
    return;
  }
  assert.ok(before.freeBytes !== null && before.freeBytes >= 30 * 1_048_576, `free before: ${before.freeBytes}`);
  assert.equal(after.freeBytes, 0);
  assert.ok(after.bytes <= before.bytes - before.freeBytes, `${after.bytes} after, ${before.bytes} before`);
  assert.match(cli("store", "compact").out, /^store: [0-9.]+ MB, of which 0\.0 MB free pages; after compacting: [0-9.]+ MB$/);

  // Another process holding the write lock: VACUUM gives up after busy_timeout with a clear message.
  const holder = new Database(join(db.dataDir, "context-store.sqlite"));
  try {
    holder.exec("BEGIN IMMEDIATE");
    const busy = cli("store", "compact");
    assert.equal(busy.code, 1, busy.err);
    assert.match(busy.err, /in use by another process .*stop it, then run `store compact` again/);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
});
