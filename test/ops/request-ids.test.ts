import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { test } from "node:test";
import { eventually } from "../helpers/harness.js";
import { startServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; jobId?: string; jobKind?: string; upstreamRequestId?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("request ids: taken from X-Request-ID when it is a UUID, else new; returned on every answer; on every log line of the request and of jobs", async (t) => {
  const db = await createTestDb();
  t.after(() => db.drop());
  const key = randomBytes(24).toString("hex");
  // A real process: its log lines are what an operator reads (stdout, JSON per line).
  const server = await startServerProcess(t, db, { BOOTSTRAP_API_KEY: key, LOG_LEVEL: "debug", WARM_UP_INDEXES: "false", JOB_POLL_MS: "50" });
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, id: res.headers.get("x-request-id"), body: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  const lines = (): LogLine[] =>
    server
      .stdout()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as LogLine);

  assert.equal((await call("POST", "/databases", { database: "logs" })).status, 202);
  await eventually(async () => {
    const res = await call("GET", "/databases/status?database=logs");
    return (res.body.data as { infra?: { ready_for_ingestion?: boolean } } | undefined)?.infra?.ready_for_ingestion;
  }, 30_000);
  const item = { id: "kiln", type: "note", content: { text: "The pottery kiln fires at 1,200 degrees every Thursday." } };
  assert.equal((await call("POST", "/context/ingest", { type: "knowledge", database: "logs", app_knowledge: [item] })).status, 202);
  await eventually(async () => {
    const res = await call("GET", "/context/status?database=logs&ids=kiln");
    return JSON.stringify(res.body).includes('"indexing_status":"completed"');
  }, 60_000);

  // A UUID the caller chose is the request id: header, meta, and the query's log lines. The first
  // query of a scope loads its search index, logged by the search feature through the process logger.
  const chosen = randomUUID();
  const query = await call(
    "POST",
    "/query",
    { database: "logs", query: "when does the kiln fire", query_by: "text" },
    { "X-Request-ID": chosen.toUpperCase() },
  );
  assert.equal(query.status, 200);
  assert.equal(query.id, chosen, "the UUID, lower-cased");
  assert.equal((query.body.meta as { request_id: string }).request_id, chosen);
  const loaded = await eventually(async () => lines().find((l) => l.msg === "search index loaded" && l.reqId === chosen), 5_000);
  assert.equal(loaded.reqId, chosen, "a service's line written through the process logger carries the request id");
  // Fastify's own lines carry it too ("request completed" is written once the answer has left).
  const ofQuery = await eventually(async () => {
    const found = lines().filter((l) => l.reqId === chosen);
    return found.some((l) => l.msg === "incoming request") && found.some((l) => l.msg === "request completed") ? found : null;
  }, 5_000);
  for (const l of ofQuery) assert.equal(JSON.stringify(l).split('"reqId"').length - 1, 1, `reqId once per line: ${JSON.stringify(l)}`);

  // Anything else is replaced by a new UUID; a safe non-UUID id is kept on the log lines as the upstream id.
  const traced = await call("GET", "/databases", undefined, { "X-Request-ID": "edge-trace.42:a" });
  assert.match(traced.id ?? "", UUID);
  await eventually(async () => lines().find((l) => l.reqId === traced.id && l.upstreamRequestId === "edge-trace.42:a" && l.msg === "request completed"), 5_000);
  for (const unsafe of ["has space", "x".repeat(200), 'quote"d']) {
    const res = await call("GET", "/databases", undefined, { "X-Request-ID": unsafe });
    assert.match(res.id ?? "", UUID);
    assert.equal(res.status, 200);
  }

  // Errors carry the id in the header and the envelope alike, including unknown routes and refused keys.
  const missing = await call("GET", "/no-such-route");
  assert.equal(missing.status, 404);
  assert.equal((missing.body.meta as { request_id: string }).request_id, missing.id);
  const refused = await call("GET", "/databases", undefined, { Authorization: "Bearer wrong" });
  assert.equal(refused.status, 401);
  assert.match(refused.id ?? "", UUID);
  assert.equal((refused.body.meta as { request_id: string }).request_id, refused.id);

  // Job lines carry the job's id and kind, and no request's id.
  const jobLines = lines().filter((l) => l.msg === "job completed");
  assert.ok(
    jobLines.some((l) => l.jobKind === "ingest.item"),
    `job lines: ${JSON.stringify(jobLines.slice(0, 3))}`,
  );
  for (const l of jobLines) {
    assert.match(l.jobId ?? "", /\S/);
    assert.equal(l.reqId, undefined, "a job enqueued by a request is not logged as that request");
  }
});
