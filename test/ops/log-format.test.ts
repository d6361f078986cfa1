import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test, type TestContext } from "node:test";
import { eventually } from "../helpers/harness.js";
import { startServerProcess } from "../helpers/server-process.js";
import { backendUnderTest, createTestDb } from "../helpers/test-db.js";

type LogLine = Record<string, unknown> & { msg?: string; req?: { url?: string } };

const BACKEND = backendUnderTest();

// Colours, should the environment ask pino-pretty for them (FORCE_COLOR).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Runs the real service with LOG_FORMAT at LOG_LEVEL (by default its own default, info), probes it the way a
 * supervisor would, asks for one page that does not exist (a request line at info), stops it,
 * and returns everything it wrote on stdout.
 */
async function run(t: TestContext, format: string, level = "info"): Promise<string> {
  const db = await createTestDb();
  t.after(() => db.drop());
  // A key: the first-run banner (plain text on stdout) is not printed.
  const key = randomBytes(24).toString("hex");
  const server = await startServerProcess(t, db, { BOOTSTRAP_API_KEY: key, LOG_LEVEL: level, LOG_FORMAT: format, WARM_UP_INDEXES: "false" });
  for (let i = 0; i < 3; i++) {
    assert.equal((await fetch(`${server.baseUrl}/healthz`)).status, 200);
    await (await fetch(`${server.baseUrl}/readyz`)).arrayBuffer();
  }
  assert.equal((await fetch(`${server.baseUrl}/no-such-page`)).status, 404);
  await eventually(async () => server.stdout().includes("no-such-page"), 5_000);
  await server.stop();
  return server.stdout();
}

test("LOG_FORMAT=json: every stdout line is JSON; probes are not logged at info; the start line is short", async (t) => {
  const out = await run(t, "json");
  const lines = out.split("\n").filter((l) => l.trim() !== "");
  const parsed = lines.map((l) => {
    try {
      return JSON.parse(l) as LogLine;
    } catch (err) {
      assert.fail(`not a JSON line (${String(err)}): ${l}`);
    }
  });
  const starting = lines.filter((_l, i) => parsed[i]?.msg === "starting");
  assert.equal(starting.length, 1, out);
  const start = JSON.parse(starting[0] ?? "{}") as LogLine;
  assert.equal(start.backend, BACKEND);
  assert.equal(typeof start.port, "number");
  assert.equal(typeof start.dataDir, "string");
  assert.ok((starting[0] ?? "").length < 400, `the start line is ${starting[0]?.length} characters`);
  // The whole configuration is at debug only.
  assert.ok(!parsed.some((l) => l.msg === "configuration"), "the configuration is logged at info");
  // Requests are logged at info (this one is), the probes are not.
  assert.ok(
    parsed.some((l) => l.req?.url === "/no-such-page"),
    out,
  );
  const probes = parsed.filter((l) => l.req?.url === "/healthz" || l.req?.url === "/readyz");
  assert.deepEqual(probes, []);
});

test("LOG_FORMAT=pretty: stdout lines are readable, not JSON; probes are not logged at info", async (t) => {
  const out = (await run(t, "pretty")).replace(ANSI, "");
  const lines = out.split("\n").filter((l) => l.trim() !== "");
  assert.ok(lines.length > 0);
  for (const line of lines) {
    let json = true;
    try {
      JSON.parse(line);
    } catch {
      // Not JSON: what this format is for.
      json = false;
    }
    assert.ok(!json, `a JSON line: ${line}`);
  }
  // [12:34:56.789] INFO: starting, its fields indented below it.
  const start = lines.findIndex((l) => /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO[^:]*: starting$/.test(l));
  assert.ok(start >= 0, out);
  assert.match(lines[start + 1] ?? "", /^\s+\S+: /);
  assert.ok(out.includes(`backend: "${BACKEND}"`), out);
  assert.ok(!out.includes("configuration"), "the configuration is logged at info");
  assert.match(out, /\/no-such-page/);
  assert.ok(!out.includes("/healthz") && !out.includes("/readyz"), out);
});

test("LOG_LEVEL=debug: the probes' request lines and the whole configuration are there, at debug", async (t) => {
  const parsed = (await run(t, "json", "debug"))
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as LogLine & { level?: number });
  const probes = parsed.filter((l) => l.req?.url === "/healthz" || l.req?.url === "/readyz");
  assert.ok(probes.length >= 6, `${probes.length} probe lines`);
  assert.ok(
    probes.every((l) => l.level === 20),
    "a probe line above debug",
  );
  const configuration = parsed.find((l) => l.msg === "configuration");
  assert.equal(configuration?.level, 20);
  assert.equal((configuration?.config as { logFormat?: string } | undefined)?.logFormat, "json");
});
