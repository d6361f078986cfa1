import assert from "node:assert/strict";
import { sql } from "kysely";
import { test } from "node:test";
import { openStore, type Store } from "../../src/platform/store/db.js";
import { migrate } from "../../src/platform/store/migrate.js";
import { MIGRATIONS } from "../../src/platform/store/migrations/index.js";
import { createTestDb } from "../helpers/test-db.js";

/** Tables that hold no organization's data: the migration log, the job queue, settings, and the organizations themselves. */
// rate_limit_buckets: one token bucket per API key id; auth_failure_windows: failed authentications
// per client address; both shared by every process.
const PLATFORM_TABLES = new Set(["schema_migrations", "jobs", "settings", "organizations", "rate_limit_buckets", "auth_failure_windows"]);

async function columnsByTable(store: Store): Promise<Map<string, Set<string>>> {
  const rows =
    store.backend === "postgres"
      ? (
          await sql<{ table_name: string; column_name: string }>`
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = current_schema()`.execute(store.db)
        ).rows
      : (
          await sql<{ table_name: string; column_name: string }>`
            SELECT m.name AS table_name, p.name AS column_name
            FROM sqlite_master m, pragma_table_info(m.name) p
            WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`.execute(store.db)
        ).rows;
  const out = new Map<string, Set<string>>();
  for (const r of rows) out.set(r.table_name, (out.get(r.table_name) ?? new Set()).add(r.column_name));
  return out;
}

test("every table that holds an organization's data carries org_id", async () => {
  const db = await createTestDb();
  const store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  try {
    await migrate(store);
    const tables = await columnsByTable(store);
    assert.ok(tables.size > 20, `found ${tables.size} tables`);
    const missing = [...tables].filter(([name, cols]) => !PLATFORM_TABLES.has(name) && !cols.has("org_id")).map(([name]) => name);
    assert.deepEqual(missing, [], "tenant tables without org_id");
  } finally {
    await store.close();
    await db.drop();
  }
});

test("migration 11 gives stored rows the organization of their database", async () => {
  const db = await createTestDb();
  const store = openStore({ databaseUrl: db.databaseUrl, dataDir: db.dataDir });
  try {
    await migrate(
      store,
      MIGRATIONS.filter((m) => m.version < 11),
    );
    const now = Date.now();
    await sql`INSERT INTO organizations (id, name, created_at) VALUES ('org-a', 'a', ${now})`.execute(store.db);
    await sql`INSERT INTO databases (id, org_id, name, kind, status, metadata_schema, created_at, updated_at)
              VALUES ('db-a', 'org-a', 'a', 'knowledge', 'ready', '[]', ${now}, ${now})`.execute(store.db);
    await sql`INSERT INTO collections (database_id, name, created_at) VALUES ('db-a', 'c', ${now})`.execute(store.db);
    await sql`INSERT INTO blobs (id, database_id, size, data, created_at) VALUES ('b1', 'db-a', 0, NULL, ${now})`.execute(store.db);
    await migrate(store);
    const collection = await store.db.selectFrom("collections").select("org_id").executeTakeFirstOrThrow();
    const blob = await store.db.selectFrom("blobs").select("org_id").executeTakeFirstOrThrow();
    assert.deepEqual([collection.org_id, blob.org_id], ["org-a", "org-a"]);
    if (store.backend === "postgres") {
      // No default left: an insert that forgets the organization fails instead of storing an orphan.
      await assert.rejects(sql`INSERT INTO blobs (id, database_id, size, data, created_at) VALUES ('b2', 'db-a', 0, NULL, ${now})`.execute(store.db), /org_id/);
    }
  } finally {
    await store.close();
    await db.drop();
  }
});
