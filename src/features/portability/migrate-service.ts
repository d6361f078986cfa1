import { AppError } from "../../platform/errors/app-error.js";
import type { Store } from "../../platform/store/db.js";
import { recreateDerivedIndexes } from "./derived-indexes.js";
import { countRows, organizationIds, schemaLevel, type PlainRow, type RowFilter } from "./portability-store.js";
import { RowCopier } from "./row-copier.js";
import { portablePages, type StoreLocation } from "./source-rows.js";
import { DATABASE_TABLES, STORE_TABLES_AFTER, STORE_TABLES_BEFORE, type TablePlan } from "./table-plan.js";

export interface MigrateEndpoint extends StoreLocation {
  readonly store: Store;
}

export interface TableCount {
  readonly table: string;
  readonly source: number;
  readonly copied: number;
  readonly target: number;
}

export interface MigrateResult {
  readonly tables: readonly TableCount[];
  readonly vector_sizes: readonly number[];
}

/**
 * The copy passes: every table whole, except the job queue, of which only the work still to do
 * moves (queued, and running, which goes back to queued: its worker is on the source).
 */
const PASSES: ReadonlyArray<{ plan: TablePlan; filter: RowFilter; adapt?: (row: PlainRow) => PlainRow }> = [
  ...[...STORE_TABLES_BEFORE, ...DATABASE_TABLES].map((plan) => ({ plan, filter: {} })),
  ...STORE_TABLES_AFTER.flatMap((plan) =>
    plan.table === "jobs"
      ? [
          { plan, filter: { status: "queued" } },
          { plan, filter: { status: "running" }, adapt: (row: PlainRow) => ({ ...row, status: "queued", lease_owner: null, lease_expires_at: null }) },
        ]
      : [{ plan, filter: {} }],
  ),
];

/**
 * Copies a whole store into an empty one (migrated, no organization), rows as they are: ids,
 * API key hashes, sealed secrets (the target needs the source's master key: SECRET_KEY or
 * DATA_DIR/secret.key), chunks, vectors, postings and graphs, so a service started on the target
 * answers as the source did. Read in one snapshot of the source, written in one transaction of
 * the target, then verified by counting. The source should not take writes meanwhile: what is
 * written after the snapshot began is not copied.
 */
export async function migrateStore(source: MigrateEndpoint, target: MigrateEndpoint, now: () => number = Date.now): Promise<MigrateResult> {
  const [sourceLevel, targetLevel] = [await schemaLevel(source.store.db), await schemaLevel(target.store.db)];
  if (sourceLevel !== targetLevel) throw new AppError("INVALID_INPUT", `the source is at schema level ${sourceLevel} and the target at ${targetLevel}`);
  if ((await organizationIds(target.store.db)).length > 0)
    throw new AppError("INVALID_INPUT", "the target store is not empty (it has organizations): migrate only into a new, empty store");
  const copier = new RowCopier(target.store.backend, target.dataDir, {
    orgId: null,
    databaseName: null,
    connectorsNeedCredentials: false,
    now: now(),
    ids: null,
  });
  const sourceCounts: Record<string, number> = {};
  try {
    await source.store.snapshot((read) =>
      target.store.transaction(async (write) => {
        for (const { plan, filter, adapt } of PASSES) {
          sourceCounts[plan.table] = (sourceCounts[plan.table] ?? 0) + (await countRows(read, plan.table, filter));
          for await (const page of portablePages(read, source, plan, filter)) {
            await copier.copy(write, plan.table, adapt ? page.map(adapt) : page);
          }
        }
      }),
    );
  } catch (err) {
    copier.discardFiles();
    throw err;
  }
  const tables: TableCount[] = [];
  for (const table of Object.keys(sourceCounts)) {
    const copied = copier.counts[table] ?? 0;
    const count = { table, source: sourceCounts[table] ?? 0, copied, target: await countRows(target.store.db, table, {}) };
    tables.push(count);
    // A target that ran the service once holds settings and recurring jobs of its own (the copy keeps one of each job).
    const short = table === "settings" ? count.target < copied : table === "jobs" ? false : count.target !== copied;
    if (count.copied !== count.source || short)
      throw new Error(`verification failed for ${table}: source ${count.source}, copied ${count.copied}, target ${count.target}`);
  }
  return { tables, vector_sizes: await recreateDerivedIndexes(target.store, target.dataDir) };
}
