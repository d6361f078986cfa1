import type { Executor, Store } from "../../platform/store/db.js";
import { DatabaseStore } from "./store.js";
import type { DatabaseRow } from "./store.js";

/** Removes one subsystem's rows and files of a database being deleted. Must be idempotent. */
export type DatabasePurger = (tx: Executor, database: DatabaseRow) => Promise<void>;

/**
 * The `database.delete` job: every subsystem that owns per-database data removes it, then the
 * database row goes, all in one transaction. Built after the subsystems it purges (they need
 * DatabaseService, which needs none of them).
 */
export class DatabasePurge {
  constructor(
    private readonly store: Store,
    private readonly purgers: readonly DatabasePurger[],
  ) {}

  async run(databaseId: string): Promise<void> {
    const row = await new DatabaseStore(this.store.db).getByIdAcrossOrganizations(databaseId);
    if (!row) return;
    await this.store.transaction(async (tx) => {
      for (const purge of this.purgers) await purge(tx, row);
      await new DatabaseStore(tx).deleteRow(row.id);
    });
  }
}
