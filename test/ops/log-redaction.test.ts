import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { eventually } from "../helpers/harness.js";
import { startServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

type LogLine = Record<string, unknown> & { msg?: string; req?: { url?: string } };

test("request logs: signed download tokens, secret query parameters and keys are redacted on every line", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const key = randomBytes(24).toString("hex");
  // A real process: its stdout (one JSON line per entry) is what an operator's log collector keeps.
  const server = await startServerProcess(t, db, { BOOTSTRAP_API_KEY: key, LOG_LEVEL: "debug", WARM_UP_INDEXES: "false", JOB_POLL_MS: "50" });
  const call = async (method: string, path: string, body?: string | FormData, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${key}`, ...headers }, body });
    const text = await res.text();
    return { status: res.status, body: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, unknown>, text };
  };
  const json = { "Content-Type": "application/json" };

  assert.equal((await call("POST", "/databases", JSON.stringify({ database: "logs" }), json)).status, 202);
  await eventually(async () => (await call("GET", "/databases/status?database=logs")).text.includes('"ready_for_ingestion":true'), 30_000);
  const form = new FormData();
  form.append("type", "knowledge");
  form.append("database", "logs");
  form.append("document_metadata", JSON.stringify([{ id: "guide" }]));
  form.append("files", new Blob(["# Guide\n\nThe kiln fires on Thursdays.\n"], { type: "text/markdown" }), "guide.md");
  assert.equal((await call("POST", "/context/ingest", form)).status, 202);
  await eventually(async () => (await call("GET", "/context/status?database=logs&ids=guide")).text.includes('"indexing_status":"completed"'), 60_000);

  const inspected = await call("GET", "/context/inspect?database=logs&id=guide&mode=url&expiry_seconds=604800");
  assert.equal(inspected.status, 200, inspected.text);
  const url = String((inspected.body.data as { presigned_url?: string }).presigned_url);
  const token = url.split("/context/files/")[1] ?? "";
  assert.ok(token.length > 40, url);
  const download = await fetch(url);
  assert.equal(download.status, 200);
  await download.arrayBuffer();
  // Misspelt, the path answers 404: its line must not keep the token either.
  assert.equal((await fetch(`${server.baseUrl}//Context/files/${token}`)).status, 404);
  // Credentials a caller put in the query string, and headers that carry them.
  const secrets = ["k3y-in-the-query-0123456789", "t0ken-in-the-query-0123456789", "s1gnature-0123456789", "0auth-code-0123456789"];
  const query = `database=logs&api_key=${secrets[0]}&access_token=${secrets[1]}&X-Amz-Signature=${secrets[2]}&code=${secrets[3]}`;
  assert.equal((await call("GET", `/databases/status?${query}`, undefined, { Cookie: "session=c00kie-0123456789" })).status, 200);

  const lines = (): LogLine[] =>
    server
      .stdout()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as LogLine);
  // The last request's lines are written as it is served: wait until they are out.
  await eventually(async () => lines().some((l) => l.msg === "incoming request" && l.req?.url?.includes("api_key")), 5_000);
  const all = server.stdout();
  for (const secret of [token, key, ...secrets, "c00kie-0123456789"]) assert.ok(!all.includes(secret), `the log holds ${secret.slice(0, 12)}...`);
  const urls = lines()
    .filter((l) => l.msg === "incoming request")
    .map((l) => l.req?.url ?? "")
    .filter((u) => !u.startsWith("/context/status") && !u.startsWith("/healthz"));
  assert.ok(urls.includes("/context/files/[redacted]"), urls.join("\n"));
  assert.ok(urls.includes("//Context/files/[redacted]"), urls.join("\n"));
  assert.ok(
    urls.includes(`/databases/status?database=logs&api_key=[redacted]&access_token=[redacted]&X-Amz-Signature=[redacted]&code=[redacted]`),
    urls.join("\n"),
  );
  assert.ok(urls.includes("/context/inspect?database=logs&id=guide&mode=url&expiry_seconds=604800"), "other parameters are kept");
});
