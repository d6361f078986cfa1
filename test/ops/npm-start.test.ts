import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { once } from "node:events";
import { stat } from "node:fs/promises";
import { test } from "node:test";
import { promisify } from "node:util";
import { ensureBuiltCli } from "../helpers/built-cli.js";
import { spawnOwned } from "../helpers/child-process.js";
import { eventually } from "../helpers/harness.js";
import { createTestDb } from "../helpers/test-db.js";
import { freePort } from "../helpers/webhook-receiver.js";

test("npm start runs the built service without rebuilding when no source changed, console included", async (t) => {
  await ensureBuiltCli();
  await promisify(execFile)(process.execPath, ["scripts/build.mjs", "--if-stale"], { timeout: 300_000 });
  const builtAt = (await stat("dist/main.js")).mtimeMs;
  const db = await createTestDb();
  t.after(() => db.drop());
  const port = await freePort();
  const proc = spawnOwned(t, process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, PORT: String(port), DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? "", LOG_LEVEL: "warn", EMBEDDING_WORKERS: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  proc.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  proc.stdout?.resume();
  const exited = once(proc, "exit");
  t.after(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    await exited;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode}: ${err}`);
      return (await fetch(`${baseUrl}/healthz`).catch(() => null))?.ok;
    },
    120_000,
    100,
  );
  const console = await fetch(`${baseUrl}/console/`);
  assert.equal(console.status, 200);
  assert.match(await console.text(), /<div id="app"><\/div>/, "the built console is served");
  assert.doesNotMatch(err, /building dist/, "nothing was rebuilt");
  assert.equal((await stat("dist/main.js")).mtimeMs, builtAt, "dist/main.js is the one built before");
});
