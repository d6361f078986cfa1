import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { sql } from "kysely";
import { createReadyDatabase, startTestApp } from "../helpers/harness.js";
import { createTestDb } from "../helpers/test-db.js";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test("no raw API key is stored in the data directory or the database; bootstrap is idempotent", async () => {
  const db = await createTestDb();
  const bootstrapKey = "bootstrap-key-ZXJ0eWZ1aW9wYXNkZmdo";
  const secondKey = "second-bootstrap-key-cXdlcnR5dWlvcA";
  try {
    const first = await startTestApp({ BOOTSTRAP_API_KEY: `${bootstrapKey}, ${secondKey}` }, db);
    const orgsAfterFirst = (await first.app.orgs.listOrganizations()).length;
    await createReadyDatabase(first, "k_db", {}, bootstrapKey);
    const cliKey = first.key;
    await first.close();

    // Restarting with the same keys creates nothing new and both keys still work.
    const second = await startTestApp({ BOOTSTRAP_API_KEY: `${bootstrapKey},${secondKey}` }, db);
    try {
      // startTestApp itself creates one org per start
      assert.equal((await second.app.orgs.listOrganizations()).length, orgsAfterFirst + 1);
      const status = await second.request("GET", "/databases/status", { query: { database: "k_db" }, key: bootstrapKey });
      assert.equal(status.status, 200);
      const other = await second.request("GET", "/databases/status", { query: { database: "k_db" }, key: secondKey });
      assert.equal(other.status, 404, "each bootstrap key has its own organization");

      const raw = [bootstrapKey, secondKey, cliKey, second.key];
      if (db.databaseUrl) {
        const tables = await sql<{ table_name: string }>`
          SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`.execute(second.app.store.db);
        assert.ok(tables.rows.length >= 5);
        for (const { table_name } of tables.rows) {
          const rows = await sql.raw(`SELECT * FROM "${table_name}"`).execute(second.app.store.db);
          const dump = JSON.stringify(rows.rows);
          for (const k of raw) assert.ok(!dump.includes(k), `raw key found in ${table_name}`);
        }
      }
      await second.app.store.db.selectFrom("api_keys").selectAll().execute();
      const files = filesUnder(db.dataDir);
      if (!db.databaseUrl) assert.ok(files.some((f) => f.endsWith(".sqlite")));
      for (const file of files) {
        const bytes = readFileSync(file);
        for (const k of raw) assert.equal(bytes.indexOf(Buffer.from(k)), -1, `raw key found in ${file}`);
      }
    } finally {
      await second.close();
    }
  } finally {
    await db.drop();
  }
});
