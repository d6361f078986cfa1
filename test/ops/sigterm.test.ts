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

test("SIGTERM: stops accepting, finishes the in-flight request, exits 0", { timeout: 120_000 }, async (t) => {
  db = await createTestDb();
  const port = await freePort();
  const key = "sigterm-test-key-0123456789abcdefghij";
  const proc = spawnTsx(t, "src/main.ts", {
    ...process.env,
    PORT: String(port),
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl ?? "",
    BOOTSTRAP_API_KEY: key,
    LOG_LEVEL: "warn",
  });
  const exited = once(proc, "exit");
  const base = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, 30_000, 100);

  // An in-flight request: headers and half of the body are sent before the signal.
  const body = JSON.stringify({ database: "inflight_db" });
  const half = Math.floor(body.length / 2);
  const responded = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      `${base}/databases`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), Authorization: `Bearer ${key}` },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, half));
    setTimeout(() => {
      assert.equal(proc.kill("SIGTERM"), true);
      setTimeout(() => req.end(body.slice(half)), 300);
    }, 200);
  });

  const { status, text } = await responded;
  assert.equal(status, 202, text);
  await new Promise((r) => setTimeout(r, 100));
  await assert.rejects(fetch(`${base}/healthz`), "no new connections after SIGTERM");
  const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
  assert.equal(signal, null);
  assert.equal(code, 0);
});
