import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { eventually } from "../helpers/harness.js";
import { nodeArgs } from "../helpers/child-process.js";
import { startServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";
import { OrgService } from "../../src/features/organizations/service.js";
import { openStore } from "../../src/platform/store/db.js";
import { migrate } from "../../src/platform/store/migrate.js";

const KEY_LINE = /export KEY=(csk_[A-Za-z0-9_-]+)/;

test("first run: one organization and key for concurrent starts on one store; none once one exists", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  // On PostgreSQL three processes' worth of stores (separate pools) race on one empty store. An
  // embedded store has one writer per process (better-sqlite3 blocks its thread while waiting
  // for the file lock), so there the three starts share one store and race through its queue.
  const stores = (db.databaseUrl ? [0, 1, 2] : [0]).map(() => openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, poolSize: 2 }));
  t.after(async () => {
    for (const s of stores) await s.close();
  });
  await migrate(stores[0]!);
  const services = [0, 1, 2].map((i) => new OrgService(stores[i % stores.length]!));
  const outcomes = await Promise.all(services.map((s) => s.createFirstOrganization()));
  const created = outcomes.filter((o) => o !== null);
  assert.equal(created.length, 1, "exactly one start creates it");
  const first = created[0]!;
  assert.equal(first.org.name, "default");
  assert.match(first.key, /^csk_/);
  const orgs = await services[0]!.listOrganizations();
  assert.deepEqual(
    orgs.map((o) => o.id),
    [first.org.id],
  );
  assert.deepEqual(await services[1]!.authenticate(first.key), { orgId: first.org.id, keyId: first.row.id });
  assert.equal(await services[2]!.createFirstOrganization(), null, "a restart creates nothing");
  assert.equal((await services[0]!.listKeys(null)).length, 1);
});

test("first run: a store that already has an organization (CLI, bootstrap) gets none", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, poolSize: 2 });
  t.after(() => store.close());
  await migrate(store);
  const orgs = new OrgService(store);
  await orgs.bootstrap(["a-bootstrap-key-long-enough-0123456789"]);
  assert.equal(await orgs.createFirstOrganization(), null);
  assert.deepEqual(
    (await orgs.listOrganizations()).map((o) => o.name),
    ["bootstrap"],
  );
});

test("npm start's entry point prints the key once with a curl to paste; the 401 says how to get one", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const server = await startServerProcess(t, db);
  const banner = await eventually(async () => KEY_LINE.exec(server.stdout()), 10_000, 50);
  const key = banner[1]!;
  assert.match(server.stdout(), new RegExp(`curl -s -X POST ${server.baseUrl}/databases -H "Authorization: Bearer \\$KEY"`));

  const anonymous = await fetch(`${server.baseUrl}/databases`, { headers: { "API-Version": "2" } });
  assert.equal(anonymous.status, 401);
  const body = (await anonymous.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, "UNAUTHORIZED");
  assert.match(body.error.message, /startup output/);
  assert.match(body.error.message, /context-store key create/);
  const wrong = (await (await fetch(`${server.baseUrl}/databases`, { headers: { Authorization: "Bearer nope" } })).json()) as { error: { message: string } };
  assert.match(wrong.error.message, /context-store key create/);

  const listed = await fetch(`${server.baseUrl}/databases`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(listed.status, 200, "the printed key works");
  await server.stop();

  const again = await startServerProcess(t, db);
  const ok = await fetch(`${again.baseUrl}/databases`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(ok.status, 200, "the key survives a restart");
  assert.doesNotMatch(again.stdout(), /First run|export KEY=/, "a restart prints no key");
  await again.stop();
});

test("with BOOTSTRAP_API_KEY the first start prints nothing and the bootstrap key is the way in", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const key = "first-run-bootstrap-key-0123456789abcdef";
  const server = await startServerProcess(t, db, { BOOTSTRAP_API_KEY: key });
  assert.equal((await fetch(`${server.baseUrl}/databases`, { headers: { Authorization: `Bearer ${key}` } })).status, 200);
  await server.stop();
  assert.doesNotMatch(server.stdout(), /First run|export KEY=/);
});

test("CLI: `key create` without --org serves the only organization, or creates one on an empty store", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const cli = (...args: string[]) => {
    const res = spawnSync(process.execPath, [...nodeArgs("src/cli/main.ts"), ...args], {
      env: { ...process.env, DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? "" },
      encoding: "utf8",
      // A CLI that hangs is killed, and the test fails, rather than the run hanging.
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    return { code: res.status ?? -1, out: res.stdout.trim(), err: res.stderr.trim() };
  };
  const first = cli("key", "create", "--json");
  assert.equal(first.code, 0, first.err);
  const second = cli("key", "create", "--json");
  assert.equal(second.code, 0, second.err);
  const a = JSON.parse(first.out) as { org_id: string; key: string };
  const b = JSON.parse(second.out) as { org_id: string; key: string };
  assert.equal(a.org_id, b.org_id, "the second key belongs to the same, only organization");
  assert.notEqual(a.key, b.key);
  assert.equal(cli("org", "create", "--name", "other").code, 0);
  const ambiguous = cli("key", "create");
  assert.equal(ambiguous.code, 2);
  assert.match(ambiguous.err, /--org is required/);
});
