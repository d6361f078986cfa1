import assert from "node:assert/strict";
import { once } from "node:events";
import { after, test } from "node:test";
import { DEMO_WORKSPACES } from "../helpers/fake-providers/demo-workspaces.js";
import { spawnTsx } from "../helpers/child-process.js";
import { eventually } from "../helpers/harness.js";
import { createTestDb, type TestDb } from "../helpers/test-db.js";
import { freePort } from "../helpers/webhook-receiver.js";

let db: TestDb | null = null;
after(async () => db?.drop());

// The printed example, one command per line: `VAR=$(curl ...)` or `curl ...`, against "$CS" with "$KEY".
const COMMAND = /^(?:(\w+)=\$\()?curl -sS(?: -X (\w+))? "\$CS([^"]+)" -H "Authorization: Bearer \$KEY"(?: -H "Content-Type: application\/json" -d '([^']*)')?/;

test("demo:connectors prints a working connector example for every demo provider, and stops on SIGINT", { timeout: 300_000 }, async (t) => {
  db = await createTestDb();
  const port = await freePort();
  const proc = spawnTsx(
    t,
    "scripts/demo-connectors.ts",
    { ...process.env, PORT: String(port), DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? "", LOG_LEVEL: "error" },
    "pipe",
  );
  let out = "";
  proc.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  const exited = once(proc, "exit");
  await eventually(async () => out.includes("DEMO READY"), 120_000, 100);

  const env = /^export CS=(\S+) KEY=(\S+)$/m.exec(out);
  assert.ok(env, out);
  const [, cs, key] = env as unknown as [string, string, string];
  assert.equal(cs, `http://127.0.0.1:${port}`);
  const vars = new Map<string, string>();
  const providers = Object.keys(DEMO_WORKSPACES);
  const ran: string[] = [];
  for (const line of out.split("\n")) {
    const m = COMMAND.exec(line);
    if (!m) continue;
    const [, assign, method = "GET", rawPath = "", body] = m;
    const path = rawPath.replace(/\$(\w+)/g, (_, v: string) => vars.get(v) ?? `<unset ${v}>`);
    const res = await fetch(`${cs}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    ran.push(`${method} ${rawPath} ${res.status}`);
    if (assign) {
      assert.equal(res.status, 201, `${line}: ${JSON.stringify(answer)}`);
      vars.set(assign, String(answer.connector_id));
    } else if (path.endsWith("/sync")) {
      assert.ok(res.status === 202 || res.status === 409, `${line}: ${res.status}`); // 409: the scheduler started it first
    } else {
      assert.equal(res.status, 200, `${line}: ${JSON.stringify(answer)}`);
    }
  }
  assert.deepEqual([...vars.keys()].sort(), providers.map((p) => p.toUpperCase()).sort(), `a connector per demo provider: ${ran.join(", ")}`);

  // Each connector syncs its whole demo workspace; its content answers the printed query.
  for (const provider of providers) {
    const objects = Number(new RegExp(`^  ${provider}\\s+(\\d+) objects`, "m").exec(out)?.[1]);
    assert.ok(objects > 0, `${provider} object count printed`);
    const id = vars.get(provider.toUpperCase())!;
    await eventually(
      async () => {
        const c = (await (await fetch(`${cs}/connectors/${id}`, { headers: { Authorization: `Bearer ${key}` } })).json()) as Record<string, unknown>;
        return c.sync_status === "idle" && c.last_successful_sync_at !== null && c.documents_dispatched === objects;
      },
      60_000,
      100,
    );
  }
  // The printed queries find the synced content (query_apps: true).
  const bodies = [...out.matchAll(/-d '(\{"database":"demo","query":[^']*)'/g)].map((q) => q[1]!);
  assert.equal(bodies.length, providers.length);
  for (const body of bodies) {
    await eventually(
      async () => {
        const res = await fetch(`${cs}/query`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body });
        const answer = (await res.json()) as { data?: { chunks?: unknown[] } };
        return (answer.data?.chunks?.length ?? 0) > 0;
      },
      120_000,
      200,
    );
  }

  assert.equal(proc.kill("SIGINT"), true);
  const [code] = (await exited) as [number | null, NodeJS.Signals | null];
  assert.equal(code, 0, "Ctrl-C stops the demo cleanly");
});
