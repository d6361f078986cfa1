import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { test } from "node:test";
import { promisify } from "node:util";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { startServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

test("npm start runs the built service without rebuilding when no source changed, console included", async (t) => {
  await ensureBuiltCli();
  await promisify(execFile)(process.execPath, ["scripts/build.mjs", "--if-stale"], { timeout: 300_000 });
  const builtAt = (await stat("dist/main.js")).mtimeMs;
  const db = await createTestDb();
  t.after(() => db.drop());
  const server = await startServerProcess(t, db, {}, { args: ["scripts/start.mjs"], captureStderr: true, readyTimeoutMs: 120_000 });
  const console = await fetch(`${server.baseUrl}/console/`);
  assert.equal(console.status, 200);
  assert.match(await console.text(), /<div id="app"><\/div>/, "the built console is served");
  assert.doesNotMatch(server.stderr(), /building dist/, "nothing was rebuilt");
  assert.equal((await stat("dist/main.js")).mtimeMs, builtAt, "dist/main.js is the one built before");
});
