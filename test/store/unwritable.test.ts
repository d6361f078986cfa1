import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { test } from "node:test";
import pg from "pg";
import { createReadyDatabase, eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { waitTerminal } from "../helpers/ingest.js";
import { startServerProcess } from "../helpers/server-process.js";
import { createTestDb } from "../helpers/test-db.js";

/**
 * Makes the live store refuse writes, for real: SQLite's page limit lowered to the pages in
 * use (writes needing a page hit SQLITE_FULL); on PostgreSQL the test database made read-only
 * for new sessions and the current ones ended (writes hit 25006 read_only_sql_transaction).
 */
async function setWritable(t: TestApp, writable: boolean): Promise<void> {
  if (!t.db.databaseUrl) {
    const pages = await sql<{ page_count: number }>`PRAGMA page_count`.execute(t.app.store.db);
    const limit = writable ? 1_073_741_823 : Number(pages.rows[0]?.page_count);
    await sql.raw(`PRAGMA max_page_count = ${limit}`).execute(t.app.store.db);
    return;
  }
  const admin = new pg.Client({ connectionString: t.db.databaseUrl });
  await admin.connect();
  try {
    await admin.query("SET default_transaction_read_only = off"); // this session itself may start read-only
    const name = (await admin.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db ?? "";
    await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = ${writable ? "off" : "on"}`);
    // Every other session ends, busy ones too: a session keeps the default it started with, so one
    // that was running a statement (a worker's poll) would stay read-only after the switch back.
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
  } finally {
    await admin.end();
  }
  // Sessions held by the app at that moment fail once with a lost connection (503): use them up.
  for (let i = 0; i < 20; i++) await t.app.store.ping().catch(() => undefined);
}

const items = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${i}`,
    type: "note",
    content: { text: `${prefix} note ${i}: ${"a store that cannot be written. ".repeat(60)}` },
  }));

test("a store that cannot be written: ingest is 503, /readyz not ready with the reason, queries still 200, all recovers", { timeout: 120_000 }, async () => {
  const t = await startTestApp();
  try {
    await createReadyDatabase(t, "full");
    assert.equal(
      (await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "full", app_knowledge: items("before", 3) } })).status,
      202,
    );
    await waitTerminal(t, "full", ["before-0", "before-1", "before-2"]);
    assert.equal((await t.request("GET", "/readyz", { key: null })).status, 200);

    await setWritable(t, false);
    const refused = await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "full", app_knowledge: items("during", 50) } });
    assert.equal(refused.status, 503, refused.text);
    assert.equal(field(refused.body, "error.code"), "SERVICE_UNAVAILABLE");
    assert.equal(refused.headers.get("retry-after"), "1");

    const ready = await t.request("GET", "/readyz", { key: null });
    assert.equal(ready.status, 503);
    assert.equal(ready.body.status, "store not writable");
    assert.match(String(ready.body.reason), t.db.databaseUrl ? /^25006: / : /^SQLITE_FULL: /);

    // The original error is what a failed transaction throws, not its ROLLBACK's.
    // (PostgreSQL: a pooled session ended by setWritable fails first with a lost connection.)
    let code: string | undefined;
    for (let attempt = 0; attempt < 5 && code === undefined; attempt++) {
      await t.app.store
        .transaction(async (tx) => {
          await tx
            .insertInto("settings")
            .values({ name: "big", value: "x".repeat(200_000), created_at: Date.now() })
            .execute();
        })
        .then(
          () => assert.fail("the write went through"),
          (err: { code?: string; message?: string }) => {
            if (!String(err.message).includes("Connection terminated")) code = err.code ?? String(err.message);
          },
        );
    }
    assert.equal(code, t.db.databaseUrl ? "25006" : "SQLITE_FULL");

    // Reads answer: the query log is written off the request path.
    const query = await t.request("POST", "/query", { body: { database: "full", query: "a store that cannot be written", max_results: 2 } });
    assert.equal(query.status, 200, query.text);
    const requestId = field<string>(query.body, "meta.request_id");

    await setWritable(t, true);
    assert.equal((await t.request("GET", "/readyz", { key: null })).status, 200, "ready once a write goes through");
    await t.app.queryLog.flush();
    const logged = await t.app.store.db.selectFrom("query_log").select("request_id").where("request_id", "=", requestId.toLowerCase()).execute();
    assert.equal(logged.length, 1, "written, at the latest once the store took writes again");
    assert.equal((await t.request("POST", "/feedback", { body: { request_id: requestId, feedback: "ok" } })).status, 201);
    const ids = items("after", 5).map((i) => i.id);
    assert.equal((await t.request("POST", "/context/ingest", { body: { type: "knowledge", database: "full", app_knowledge: items("after", 5) } })).status, 202);
    const rows = await waitTerminal(t, "full", ids);
    assert.deepEqual([...new Set(rows.map((r) => r.indexing_status))], ["completed"]);
  } finally {
    await t.close();
  }
});

/**
 * A full disk, for real: the server process may write no byte of any file past offset 1 (its
 * RLIMIT_FSIZE, set with util-linux's prlimit on its pid; the kernel answers EFBIG, as it answers
 * ENOSPC on a full disk: the store's files and the upload spool cannot grow). Unlike a page limit,
 * a write that never reaches the disk still goes through: a probe rolled back in SQLite's page
 * cache did, and readiness said ready while every ingest failed.
 */
test(
  "a full disk: the failing writes answer 503 and /readyz stays not ready with the reason until the disk takes writes again",
  { timeout: 120_000 },
  async (t) => {
    const db = await createTestDb();
    t.after(() => db.drop());
    const key = randomBytes(24).toString("hex");
    const server = await startServerProcess(t, db, { BOOTSTRAP_API_KEY: key, WARM_UP_INDEXES: "false", JOB_POLL_MS: "50" });
    const pid = String(server.proc.pid);
    const fileSizeLimit = (soft: string) => execFileSync("prlimit", ["--pid", pid, `--fsize=${soft}:unlimited`]);
    const call = async (method: string, path: string, body?: string | FormData) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${key}`, ...(typeof body === "string" ? { "Content-Type": "application/json" } : {}) };
      const res = await fetch(`${server.baseUrl}${path}`, { method, headers, body });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text.startsWith("{") ? JSON.parse(text) : {}) as Record<string, unknown>, text };
    };
    const upload = (id: string) => {
      const form = new FormData();
      form.append("type", "knowledge");
      form.append("database", "disk");
      form.append("document_metadata", JSON.stringify([{ id }]));
      form.append("files", new Blob([`# ${id}\n\n${"A note written to a full disk. ".repeat(400)}\n`], { type: "text/markdown" }), `${id}.md`);
      return call("POST", "/context/ingest", form);
    };
    const ingest = (prefix: string) =>
      call("POST", "/context/ingest", JSON.stringify({ type: "knowledge", database: "disk", app_knowledge: items(prefix, 20) }));

    assert.equal((await call("POST", "/databases", JSON.stringify({ database: "disk" }))).status, 202);
    await eventually(async () => (await call("GET", "/databases/status?database=disk")).text.includes('"ready_for_ingestion":true'), 30_000);
    assert.equal((await call("GET", "/readyz")).status, 200);

    fileSizeLimit("1");
    try {
      // The upload's spool is a file in DATA_DIR on both backends; the embedded store's own files too.
      const refused = [await upload("spooled"), ...(db.databaseUrl ? [] : [await ingest("during")])];
      for (const res of refused) {
        assert.equal(res.status, 503, res.text);
        assert.equal(field(res.body, "error.code"), "SERVICE_UNAVAILABLE");
        assert.equal(res.headers.get("retry-after"), "1");
      }
      for (let i = 0; i < 3; i++) {
        const ready = await call("GET", "/readyz");
        assert.equal(ready.status, 503, `readiness check ${i + 1}: ${ready.text}`);
        assert.equal(ready.body.status, "store not writable");
        assert.match(String(ready.body.reason), /^(EFBIG: a file in DATA_DIR cannot be written|SQLITE_IOERR|SQLITE_FULL)/);
        assert.doesNotMatch(String(ready.body.reason), new RegExp(db.dataDir), "no path in a public answer");
      }
      assert.equal(
        (await call("POST", "/query", JSON.stringify({ database: "disk", query: "a full disk", max_results: 2 }))).status,
        200,
        "reads still answer",
      );
    } finally {
      fileSizeLimit("unlimited");
    }

    assert.equal((await call("GET", "/readyz")).status, 200, "ready once the disk takes writes");
    assert.equal((await upload("after")).status, 202);
    assert.equal((await ingest("after")).status, 202);
    await eventually(async () => (await call("GET", "/context/status?database=disk&ids=after")).text.includes('"indexing_status":"completed"'), 60_000);
  },
);
