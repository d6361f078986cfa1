import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { sql } from "kysely";
import { openStore } from "../../src/platform/store/db.js";
import { startWalCheckpointer } from "../../src/platform/store/wal-checkpointer.js";
import { eventually } from "../helpers/harness.js";

/*
 * The embedded store's checkpoints run on a thread of their own (wal-checkpointer.ts): commits on
 * the request thread never copy the log into the database file. SQLite-specific, so it opens an
 * embedded store whichever backend the suite runs on.
 */
test("the embedded store's log reaches the database file through the checkpointer, not through commits", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wal-checkpoint-"));
  const store = openStore({ databaseUrl: null, dataDir: dir });
  try {
    const auto = await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(store.db);
    assert.equal(Number(auto.rows[0]?.wal_autocheckpoint), 0, "commits run no checkpoint");
    await sql`CREATE TABLE filler (v TEXT NOT NULL)`.execute(store.db);
    const fileSize = (): number => statSync(join(dir, "context-store.sqlite")).size;
    const before = fileSize();
    // 2 MB: half of SQLite's automatic threshold (1,000 pages of 4 KB), so only the checkpointer copies it.
    for (let i = 0; i < 20; i++) await sql`INSERT INTO filler (v) VALUES (${"x".repeat(100_000)})`.execute(store.db);
    await eventually(async () => fileSize() > before + 1_500_000, 10_000, 50);
    const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(store.reader);
    assert.equal(Number(rows.rows[0]?.n), 20);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("once checkpointed, the embedded store's log is cut back to its size limit at the next write", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wal-limit-"));
  const limit = 1024 * 1024;
  const store = openStore({ databaseUrl: null, dataDir: dir, walSizeLimitBytes: limit });
  try {
    await sql`CREATE TABLE filler (v TEXT NOT NULL)`.execute(store.db);
    const walSize = (): number => statSync(join(dir, "context-store.sqlite-wal")).size;
    const fileSize = (): number => statSync(join(dir, "context-store.sqlite")).size;
    const before = fileSize();
    // 4 MB in one transaction: the log holds all of it until a checkpoint copies it.
    await store.transaction(async (tx) => {
      for (let i = 0; i < 40; i++) await sql`INSERT INTO filler (v) VALUES (${"y".repeat(100_000)})`.execute(tx);
    });
    assert.ok(walSize() > 3 * limit, `the log holds the transaction (${walSize()} bytes)`);
    await eventually(async () => fileSize() > before + 3_500_000, 10_000, 50);
    // The checkpoint is complete; the next write starts the log over and truncates it.
    await eventually(
      async () => {
        await sql`INSERT INTO filler (v) VALUES (${"z"})`.execute(store.db);
        return walSize() <= limit;
      },
      10_000,
      100,
    );
    const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM filler`.execute(store.reader);
    assert.ok(Number(rows.rows[0]?.n) >= 41, "every row is there");
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a checkpointer whose database is gone ends without creating an empty one in its place", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wal-checkpoint-gone-"));
  try {
    const file = join(dir, "context-store.sqlite");
    let ended = false;
    // The store was closed and its folder removed before the thread got to open the file.
    const checkpointer = startWalCheckpointer(file, () => (ended = true), 20);
    await eventually(async () => ended, 10_000, 20);
    await checkpointer.stop();
    assert.equal(existsSync(file), false, "no file was created");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
