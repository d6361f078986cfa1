import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { backendUnderTest, createTestDb, type TestDb } from "../helpers/test-db.js";
import { cliEnv, runCli } from "./run-cli.js";

/** The environment of an operator command on a store (DATA_DIR, DATABASE_URL). */
function operatorEnv(db: TestDb): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: db.dataDir, LOG_LEVEL: "silent" };
  delete env.CONTEXT_STORE_API_KEY;
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  else delete env.DATABASE_URL;
  return env;
}

/**
 * Every command exits non-zero on a refusal: an answer other than 2xx, or a per-item miss or
 * failure in a 2xx answer. 1 for what the service refused, 2 for how the command was called
 * (and the operator commands' refusals).
 */
describe(`exit codes of refusals (${backendUnderTest()})`, () => {
  let app: TestApp;
  let empty: TestDb;
  const dir = mkdtempSync(join(tmpdir(), "cli-codes-"));

  before(async () => {
    await ensureBuiltCli();
    app = await startTestApp();
    empty = await createTestDb({ migrated: true });
    await createReadyDatabase(app, "codes");
    const items = [{ id: "known", type: "note", title: "Known", content: { text: "The tide tables are printed weekly." } }];
    const res = await app.request("POST", "/context/ingest", { body: { type: "knowledge", database: "codes", app_knowledge: JSON.stringify(items) } });
    assert.equal(res.status, 202, res.text);
    await waitTerminal(app, "codes", ["known"]);
  });
  after(async () => {
    await app?.close();
    await empty?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const client = (): NodeJS.ProcessEnv => cliEnv({ url: app.baseUrl, key: app.key, database: "codes" });
  const cases: Array<{ args: () => string[]; env?: () => NodeJS.ProcessEnv; code: number; stderr: RegExp; stdout?: RegExp }> = [
    { args: () => ["status", "missing-id"], code: 1, stderr: /NOT_FOUND: 1 of 1 item\(s\) not found/, stdout: /missing-id\terrored\tFILE_NOT_FOUND/ },
    { args: () => ["status", "known", "missing-id"], code: 1, stderr: /NOT_FOUND: 1 of 2 item\(s\) not found/, stdout: /known\tcompleted/ },
    { args: () => ["status", "--type", "memory", "missing-memory"], code: 1, stderr: /NOT_FOUND/ },
    { args: () => ["status", "known"], code: 0, stderr: /^$/, stdout: /known\tcompleted/ },
    { args: () => ["inspect", "missing-id"], code: 1, stderr: /FILE_NOT_FOUND/ },
    { args: () => ["delete", "missing-id"], code: 1, stderr: /DELETE_INCOMPLETE/ },
    { args: () => ["query", "tide", "--database", "nope"], code: 1, stderr: /DATABASE_NOT_FOUND/ },
    { args: () => ["list", "--database", "nope"], code: 1, stderr: /DATABASE_NOT_FOUND/ },
    { args: () => ["databases", "status", "nope"], code: 1, stderr: /DATABASE_NOT_FOUND/ },
    { args: () => ["databases", "delete", "nope"], code: 1, stderr: /DATABASE_NOT_FOUND/ },
    { args: () => ["databases", "create", "codes"], code: 1, stderr: /DATABASE_ALREADY_EXISTS/ },
    { args: () => ["connectors", "status", "01a24340-8c98-7164-8b8f-ada451e66432"], code: 1, stderr: /CONNECTOR_NOT_FOUND/ },
    { args: () => ["connectors", "delete", "01a24340-8c98-7164-8b8f-ada451e66432"], code: 1, stderr: /CONNECTOR_NOT_FOUND/ },
    { args: () => ["connectors", "providers", "nope"], code: 1, stderr: /NOT_FOUND/ },
    { args: () => ["feedback", "no-such-request", "good"], code: 1, stderr: /NOT_FOUND|INVALID_INPUT/ },
    { args: () => ["query", "tide"], env: () => cliEnv({ url: app.baseUrl, key: "csk_wrong", database: "codes" }), code: 1, stderr: /UNAUTHORIZED/ },
    { args: () => ["query", "tide"], env: () => cliEnv({ url: app.baseUrl, database: "codes" }), code: 2, stderr: /no API key/ },
    {
      args: () => ["key", "list", "--org", "01a24340-8c98-7164-8b8f-ada451e66432"],
      env: () => operatorEnv(app.db),
      code: 2,
      stderr: /organization .* not found/,
    },
    { args: () => ["key", "revoke", "--id", "nope"], env: () => operatorEnv(app.db), code: 2, stderr: /no active key/ },
    { args: () => ["key", "create", "--org", "nope"], env: () => operatorEnv(app.db), code: 2, stderr: /organization nope not found/ },
    { args: () => ["export", "--database", "nope", "--out", join(dir, "a.tar.gz")], env: () => operatorEnv(app.db), code: 2, stderr: /DATABASE_NOT_FOUND/ },
    {
      args: () => ["export", "--database", "codes", "--out", join(dir, "b.tar.gz")],
      env: () => operatorEnv(empty),
      code: 2,
      stderr: /NOT_FOUND: the store has no organization/,
    },
    {
      args: () => ["export", "--database", "codes", "--org", "nope", "--out", join(dir, "c.tar.gz")],
      env: () => operatorEnv(app.db),
      code: 2,
      stderr: /organization nope not found/,
    },
    { args: () => ["import", "--in", join(dir, "missing.tar.gz")], env: () => operatorEnv(app.db), code: 2, stderr: /INVALID_INPUT: cannot unpack/ },
  ];

  for (const c of cases) {
    test(`context-store ${c.args().join(" ").replace(dir, "<dir>")} exits ${c.code}`, async (t) => {
      const res = await runCli(t, c.args(), (c.env ?? client)());
      assert.equal(res.code, c.code, `stdout: ${res.out}\nstderr: ${res.err}`);
      assert.match(res.err, c.stderr);
      if (c.stdout) assert.match(res.out, c.stdout);
    });
  }
});
