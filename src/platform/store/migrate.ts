import { sql } from "kysely";
import type { Executor, Store } from "./db.js";
import { migrationChecksum } from "./migrations/checksum.js";
import { MIGRATIONS } from "./migrations/index.js";
import type { Migration } from "./migrations/migration.js";
import { inSystemScope } from "./row-scope.js";

// Any constant works; it only has to be the same in every process of one deployment.
export const PG_MIGRATION_LOCK = 7_402_117;

/**
 * Applies every pending migration, each in its own transaction. Safe to run from many
 * processes at once: PostgreSQL serialises on an advisory lock, SQLite on BEGIN IMMEDIATE.
 * Returns the versions applied by this call. Refuses to start (throws, naming the version) when a
 * migration already applied here was recorded with other statements than the code now holds.
 * Runs in system scope: migrations touch every organization's rows.
 */
export function migrate(store: Store, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return inSystemScope(() => applyMigrations(store, migrations));
}

async function applyMigrations(store: Store, migrations: readonly Migration[]): Promise<number[]> {
  const applied: number[] = [];
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  // Created under the same lock: concurrent CREATE TABLE IF NOT EXISTS can still collide on PostgreSQL.
  await store.transaction(async (tx) => {
    if (store.backend === "postgres") await sql`SELECT pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(tx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`.execute(tx);
    await addChecksumColumn(store, tx);
    await verifyApplied(tx, ordered);
  });
  for (const m of ordered) {
    await store.transaction(async (tx) => {
      if (store.backend === "postgres") await sql`SELECT pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(tx);
      const done = await tx.selectFrom("schema_migrations").select("version").where("version", "=", m.version).executeTakeFirst();
      if (done) return;
      for (const statement of store.backend === "postgres" ? m.postgres : m.sqlite) {
        await sql.raw(statement).execute(tx);
      }
      await tx
        .insertInto("schema_migrations")
        .values({ version: m.version, name: m.name, applied_at: Date.now(), checksum: migrationChecksum(m) })
        .execute();
      applied.push(m.version);
    });
  }
  return applied;
}

/** The checksum column came after the table: added here, idempotently, for stores that predate it. */
async function addChecksumColumn(store: Store, tx: Executor): Promise<void> {
  if (store.backend === "postgres") {
    await sql`ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum TEXT`.execute(tx);
    return;
  }
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM pragma_table_info('schema_migrations') WHERE name = 'checksum'`.execute(tx);
  if (Number(rows[0]?.n ?? 0) === 0) await sql`ALTER TABLE schema_migrations ADD COLUMN checksum TEXT`.execute(tx);
}

/**
 * Compares every applied migration's recorded checksum with the code's. Rows applied before
 * checksums were recorded have none: they are filled in from the code, not failed.
 */
async function verifyApplied(tx: Executor, migrations: readonly Migration[]): Promise<void> {
  const rows = await tx.selectFrom("schema_migrations").select(["version", "checksum"]).execute();
  const recorded = new Map(rows.map((r) => [Number(r.version), r.checksum]));
  for (const m of migrations) {
    if (!recorded.has(m.version)) continue;
    const expected = migrationChecksum(m);
    const stored = recorded.get(m.version);
    if (stored === null || stored === undefined) {
      await tx.updateTable("schema_migrations").set({ checksum: expected }).where("version", "=", m.version).execute();
    } else if (stored !== expected) {
      throw new Error(
        `migration ${m.version} (${m.name}) was applied to this database with other statements than the code now holds ` +
          `(recorded checksum ${stored}, code ${expected}): a landed migration must never be edited; restore it and add a new migration`,
      );
    }
  }
}

/** True when every known migration is recorded: what /readyz checks. */
export async function isMigrated(store: Store): Promise<boolean> {
  const latest = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
  const row = await store.db
    .selectFrom("schema_migrations")
    .select((eb) => eb.fn.max("version").as("v"))
    .executeTakeFirst();
  return Number(row?.v ?? 0) >= latest;
}
