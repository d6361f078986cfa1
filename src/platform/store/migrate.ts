import { sql } from "kysely";
import type { Store } from "./db.js";
import { MIGRATIONS } from "./migrations/index.js";
import type { Migration } from "./migrations/migration.js";
import { inSystemScope } from "./row-scope.js";

// Any constant works; it only has to be the same in every process of one deployment.
export const PG_MIGRATION_LOCK = 7_402_117;

/**
 * Applies every pending migration, each in its own transaction. Safe to run from many
 * processes at once: PostgreSQL serialises on an advisory lock, SQLite on BEGIN IMMEDIATE.
 * Returns the versions applied by this call. Runs in system scope: migrations touch every
 * organization's rows.
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
  });
  for (const m of ordered) {
    await store.transaction(async (tx) => {
      if (store.backend === "postgres") await sql`SELECT pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(tx);
      const done = await tx.selectFrom("schema_migrations").select("version").where("version", "=", m.version).executeTakeFirst();
      if (done) return;
      for (const statement of store.backend === "postgres" ? m.postgres : m.sqlite) {
        await sql.raw(statement).execute(tx);
      }
      await tx.insertInto("schema_migrations").values({ version: m.version, name: m.name, applied_at: Date.now() }).execute();
      applied.push(m.version);
    });
  }
  return applied;
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
