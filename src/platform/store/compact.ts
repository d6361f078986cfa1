import { sql } from "kysely";
import type { Store } from "./db.js";

/** The store's size on disk, and how much of it is free pages waiting for reuse (SQLite only). */
export interface StoreSpace {
  readonly backend: Store["backend"];
  readonly bytes: number;
  /** SQLite: pages freed by deletions and dropped tables; they stay in the file until VACUUM. PostgreSQL: null. */
  readonly freeBytes: number | null;
}

export async function storeSpace(store: Store): Promise<StoreSpace> {
  if (store.backend === "postgres") {
    const { rows } = await sql<{ bytes: string }>`SELECT pg_database_size(current_database())::text AS bytes`.execute(store.reader);
    return { backend: store.backend, bytes: Number(rows[0]?.bytes ?? 0), freeBytes: null };
  }
  const { rows } = await sql<{ page_size: number; page_count: number; freelist_count: number }>`
    SELECT (SELECT page_size FROM pragma_page_size()) AS page_size,
           (SELECT page_count FROM pragma_page_count()) AS page_count,
           (SELECT freelist_count FROM pragma_freelist_count()) AS freelist_count`.execute(store.reader);
  const row = rows[0];
  if (row === undefined) throw new Error("SQLite reported no page counts");
  return { backend: store.backend, bytes: row.page_size * row.page_count, freeBytes: row.page_size * row.freelist_count };
}

/**
 * Free pages worth mentioning at start: at least 256 MB and a quarter of the file (migration 0022
 * left 1 GB of a 1.4 GB store free at 110,000 chunks; deleting a database leaves its pages too).
 */
export const worthCompacting = (space: StoreSpace): boolean =>
  space.freeBytes !== null && space.freeBytes >= 256 * 1024 * 1024 && space.freeBytes >= space.bytes / 4;

/**
 * Returns free space to the file system. SQLite: VACUUM rewrites the file without its free pages
 * (it needs the store to itself for its duration: another process writing makes it fail busy),
 * then the write-ahead log it filled is truncated. PostgreSQL: VACUUM (ANALYZE) marks dead rows'
 * space reusable and refreshes the planner's statistics (a dropped table's files are gone already).
 */
export async function compactStore(store: Store): Promise<void> {
  if (store.backend === "postgres") {
    await sql`VACUUM (ANALYZE)`.execute(store.db);
    return;
  }
  await sql`VACUUM`.execute(store.db);
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(store.db);
}
