import assert from "node:assert/strict";
import { once } from "node:events";
import { request } from "node:http";
import { after, test } from "node:test";
import { spawnTsx } from "../helpers/child-process.js";
import { eventually } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import { freePort } from "../helpers/webhook-receiver.js";

let db: TestDb | null = null;
after(async () => db?.drop());

const BUDGET_MS = 2_000;
/** Signal delivery, the exit itself and this test's own event loop on a loaded 2-core machine. */
const EXIT_MARGIN_MS = 700;

test(
  "SIGTERM with a request that never finishes: the whole shutdown fits SHUTDOWN_TIMEOUT_MS, the rest is abandoned and logged",
  { timeout: 120_000 },
  async (t) => {
    db = await createTestDb();
    const port = await freePort();
    const key = "shutdown-budget-key-0123456789abcdefgh";
    const proc = spawnTsx(
      t,
      "src/main.ts",
      {
        ...process.env,
        PORT: String(port),
        DATA_DIR: db.dataDir,
        DATABASE_URL: db.databaseUrl ?? "",
        BOOTSTRAP_API_KEY: key,
        LOG_LEVEL: "warn",
        SHUTDOWN_TIMEOUT_MS: String(BUDGET_MS),
      },
      "pipe",
    );
    let out = "";
    proc.stdout?.on("data", (c: Buffer) => (out += c.toString()));
    const exited = once(proc, "exit");
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, 30_000, 100);

    // A request whose body never completes keeps the server from closing on its own.
    const stuck = request(`${base}/databases`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": "1000", Authorization: `Bearer ${key}` },
    });
    stuck.on("error", () => undefined);
    stuck.write('{"database": "never_');
    t.after(() => stuck.destroy());
    await new Promise((r) => setTimeout(r, 200));

    const signalled = performance.now();
    assert.equal(proc.kill("SIGTERM"), true);
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    const took = performance.now() - signalled;
    assert.equal(signal, null, "it exited by itself");
    assert.equal(code, 1, "not a clean exit: something was abandoned");
    assert.ok(took >= BUDGET_MS - 100, `waited for the in-flight request (${Math.round(took)} ms)`);
    assert.ok(took <= BUDGET_MS + EXIT_MARGIN_MS, `exited within the budget: ${Math.round(took)} ms for SHUTDOWN_TIMEOUT_MS=${BUDGET_MS}`);
    assert.match(out, /shutdown budget \(SHUTDOWN_TIMEOUT_MS\) spent: abandoning the rest/);
    assert.match(out, /close the server/);
  },
);
