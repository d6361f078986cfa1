import assert from "node:assert/strict";
import { test } from "node:test";
import { openStore } from "../../src/platform/store/db.js";
import { isMigrated, migrate } from "../../src/platform/store/migrate.js";
import { MIGRATIONS } from "../../src/platform/store/migrations/index.js";
import { createTestDb } from "../helpers/test-db.js";

test("migrations apply in order to an empty store, then again as a no-op, also concurrently", async () => {
  const db = await createTestDb();
  const a = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  const b = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  try {
    const versions = MIGRATIONS.map((m) => m.version);
    assert.ok(
      versions.every((v, i) => i === 0 || v > versions[i - 1]!),
      "versions strictly increase",
    );
    // Two processes on PostgreSQL race through the advisory lock. Two SQLite connections in
    // one process would block each other's event loop (the driver is synchronous), so there
    // the second simply runs after the first; across processes BEGIN IMMEDIATE serialises them.
    const [first, second] = db.databaseUrl !== null ? await Promise.all([migrate(a), migrate(b)]) : [await migrate(a), await migrate(b)];
    assert.deepEqual(
      [...first, ...second].sort((x, y) => x - y),
      MIGRATIONS.map((m) => m.version),
    );
    assert.equal(await isMigrated(a), true);
    assert.deepEqual(await migrate(a), [], "second run applies nothing");
    const rows = await a.db.selectFrom("schema_migrations").select(["version", "name"]).orderBy("version").execute();
    assert.deepEqual(
      rows.map((r) => r.version),
      MIGRATIONS.map((m) => m.version),
    );
  } finally {
    await a.close();
    await b.close();
    await db.drop();
  }
});
