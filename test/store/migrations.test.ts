import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { openStore } from "../../src/platform/store/db.js";
import { isMigrated, migrate } from "../../src/platform/store/migrate.js";
import { migrationChecksum } from "../../src/platform/store/migrations/checksum.js";
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

test("migrate() records each migration's checksum, fills in rows from before checksums, and refuses an edited landed migration", async () => {
  const db = await createTestDb();
  const store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  try {
    await migrate(store);
    const recorded = async () =>
      (await store.db.selectFrom("schema_migrations").select(["version", "checksum"]).orderBy("version").execute()).map((r) => [Number(r.version), r.checksum]);
    const expected = MIGRATIONS.map((m) => [m.version, migrationChecksum(m)]);
    assert.deepEqual(await recorded(), expected, "each applied migration records its checksum");

    // A store migrated before checksums existed: the table has no such column.
    await sql`ALTER TABLE schema_migrations DROP COLUMN checksum`.execute(store.db);
    assert.deepEqual(await migrate(store), []);
    assert.deepEqual(await recorded(), expected, "the column is added again and every row filled in");
    await store.db.updateTable("schema_migrations").set({ checksum: null }).execute();
    assert.deepEqual(await migrate(store), []);
    assert.deepEqual(await recorded(), expected, "rows without a checksum are filled in, not failed");

    // The code's copy of landed migration 3 is edited: migrate() refuses, naming the version.
    const edited = MIGRATIONS.map((m) => (m.version === 3 ? { ...m, sqlite: [...m.sqlite, "SELECT 1"], postgres: [...m.postgres, "SELECT 1"] } : m));
    await assert.rejects(migrate(store, edited), (err: Error) => {
      assert.match(err.message, /^migration 3 \(/);
      assert.match(err.message, /never be edited/);
      return true;
    });
    // A recorded checksum that differs (the database ran other statements) is refused the same way.
    await store.db
      .updateTable("schema_migrations")
      .set({ checksum: "0".repeat(64) })
      .where("version", "=", 5)
      .execute();
    await assert.rejects(migrate(store), /^Error: migration 5 \(/);
  } finally {
    await store.close();
    await db.drop();
  }
});
