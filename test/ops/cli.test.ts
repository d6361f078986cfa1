import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, test } from "node:test";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { nodeArgs } from "../helpers/child-process.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";

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
