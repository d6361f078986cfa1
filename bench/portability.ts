// Moving a store: `npm run bench:portability` (embedded) or with DATABASE_URL (PostgreSQL).
// Writes the `bench` database (bench/bench-store.ts: knowledge chunks of 10 per item and a tenth as
// many memories, real USE-lite vectors cycled), then times what the operator commands do, through
// the same functions the CLI calls (`context-store export`, `import`, `migrate`; the CLI's own
// start adds about a second):
// - export of the database to an archive (its size);
// - import of the archive into a fresh store, then the first query there (on SQLite it rebuilds
//   the collection's vector index from the rows, and every store loads its BM25 index) and the
//   next one;
// - migrate of the whole store into a fresh store: SQLite -> SQLite, or with DATABASE_URL
//   PostgreSQL -> SQLite and that copy on to PostgreSQL again (SQLite -> PostgreSQL).
// Options: --chunks N (default 20000), --distinct-vectors N (default 500).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApplication, type Application } from "../src/app.js";
import { loadConfig } from "../src/platform/config.js";
import { openStore, type Store } from "../src/platform/store/db.js";
import { migrate } from "../src/platform/store/migrate.js";
import { exportDatabase } from "../src/features/portability/export-service.js";
import { importArchive } from "../src/features/portability/import-service.js";
import { migrateStore } from "../src/features/portability/migrate-service.js";
import { createTestDb, type TestDb, testDbAt } from "../test/helpers/test-db.js";
import { option, percentile } from "./bench-utils.js";
import { benchText, openBenchStore } from "./bench-store.js";

const text = benchText();
const source = await openBenchStore({
  chunks: option("chunks", 20_000),
  distinctVectors: option("distinct-vectors", 500),
  text,
  env: { WARM_UP_INDEXES: "false" },
});
const work = mkdtempSync(join(tmpdir(), "bench-portability-"));
const rows: Array<[string, string]> = [];
const seconds = (since: number): number => (performance.now() - since) / 1000;
const total = (counts: Record<string, number>): number => Object.values(counts).reduce((a, b) => a + b, 0);

async function freshStore(db: TestDb): Promise<Store> {
  const store = openStore({ dataDir: db.dataDir, databaseUrl: db.databaseUrl, poolSize: 2 });
  await migrate(store);
  return store;
}

/**
 * An application on a store, its query embedder already started (about 2 s of model load, not the
 * move's), so that the first query's time is the search indexes built from the moved rows.
 */
async function appOn(db: TestDb): Promise<Application> {
  const app = await createApplication(
    loadConfig({
      DATA_DIR: db.dataDir,
      LOG_LEVEL: "error",
      RATE_LIMIT_PER_MINUTE: "0",
      WARM_UP_INDEXES: "false",
      ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    }),
  );
  await app.pipeline.warmUp();
  return app;
}

/** Queries against the `bench` database: the first one after the move, and the median of the next 20 (ms). */
async function queryTimes(app: Application, orgId: string): Promise<[number, number]> {
  const key = (await app.orgs.createKey(orgId, "bench")).key;
  const ask = async (question: string): Promise<number> => {
    const started = performance.now();
    const res = await app.server.inject({
      method: "POST",
      url: "/query",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: JSON.stringify({ database: "bench", query: question, max_results: 10 }),
    });
    if (res.statusCode !== 200) throw new Error(`query: ${res.statusCode} ${res.body}`);
    if (res.json<{ data: { chunks: unknown[] } }>().data.chunks.length === 0) throw new Error("the moved database answered no chunk");
    return performance.now() - started;
  };
  const first = await ask(text.pick(text.questions));
  const next: number[] = [];
  for (let i = 0; i < 20; i++) next.push(await ask(text.pick(text.questions)));
  return [
    first,
    percentile(
      next.sort((a, b) => a - b),
      0.5,
    ),
  ];
}

/** `context-store migrate` from one store into an empty one, then the first queries on the target. */
async function timedMigrate(fromDb: TestDb, toDb: TestDb): Promise<void> {
  const from = await freshStore(fromDb);
  const to = await freshStore(toDb);
  const step = `${from.backend} -> ${to.backend}`;
  try {
    const started = performance.now();
    const result = await migrateStore(
      { store: from, dataDir: fromDb.dataDir, backend: from.backend },
      { store: to, dataDir: toDb.dataDir, backend: to.backend },
    );
    const migrateSeconds = seconds(started);
    const copied = result.tables.reduce((n, t) => n + t.copied, 0);
    rows.push([`migrate ${step}`, `${migrateSeconds.toFixed(1)} s, ${copied} rows (${(copied / migrateSeconds).toFixed(0)}/s), counts verified`]);
  } finally {
    await to.close();
    await from.close();
  }
  const app = await appOn(toDb);
  try {
    const org = await app.store.db.selectFrom("organizations").select("id").executeTakeFirstOrThrow();
    const [first, next] = await queryTimes(app, org.id);
    rows.push([`first query after ${step}`, `${first.toFixed(0)} ms (then p50 ${next.toFixed(1)} ms)`]);
  } finally {
    await app.close();
  }
}

try {
  const [knowledge, memory] = await Promise.all(
    (["knowledge", "memory"] as const).map(async (corpus) =>
      Number(
        (
          await source.app.store.reader
            .selectFrom("context_chunks")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("corpus", "=", corpus)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ),
  );
  console.log(`source: ${source.backend}, ${knowledge} knowledge and ${memory} memory chunks in database "bench"`);

  // 1. Export (the service may keep running: the archive is one snapshot).
  const archive = join(work, "bench.tar.gz");
  let started = performance.now();
  const { manifest } = await exportDatabase(source.app.store, source.db.dataDir, { database: "bench", out: archive });
  const exportSeconds = seconds(started);
  const archiveMb = statSync(archive).size / 1048576;
  rows.push([
    "export",
    `${exportSeconds.toFixed(1)} s, ${total(manifest.counts)} rows (${(total(manifest.counts) / exportSeconds).toFixed(0)}/s), archive ${archiveMb.toFixed(1)} MB`,
  ]);
  await source.app.close();

  // 2. Import into a fresh store of the same backend (with the service open on it), then its first queries.
  const importDb = await createTestDb();
  try {
    const app = await appOn(importDb);
    try {
      const org = await app.orgs.createOrganization("imported");
      started = performance.now();
      const result = await importArchive(
        { store: app.store, dataDir: importDb.dataDir, webhookSecrets: app.secrets.webhooks },
        { file: archive, orgId: org.id },
      );
      const importSeconds = seconds(started);
      rows.push(["import", `${importSeconds.toFixed(1)} s, ${total(result.counts)} rows (${(total(result.counts) / importSeconds).toFixed(0)}/s)`]);
      const [first, next] = await queryTimes(app, org.id);
      rows.push(["first query after import", `${first.toFixed(0)} ms (then p50 ${next.toFixed(1)} ms)`]);
    } finally {
      await app.close();
    }
  } finally {
    await importDb.drop();
  }

  // 3. Migrate the whole store into an empty SQLite store (PostgreSQL -> SQLite with DATABASE_URL),
  // 4. and with DATABASE_URL that SQLite copy on into an empty PostgreSQL database (SQLite -> PostgreSQL).
  const sqliteDir = mkdtempSync(join(work, "migrated-"));
  const migratedDb = testDbAt(sqliteDir, null);
  try {
    await timedMigrate(source.db, migratedDb);
    if (source.backend === "postgres") {
      const postgresDb = await createTestDb();
      try {
        await timedMigrate(migratedDb, postgresDb);
      } finally {
        await postgresDb.drop();
      }
    }
  } finally {
    await migratedDb.drop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  if (!source.kept) await source.db.drop();
}

const width = Math.max(...rows.map(([step]) => step.length));
for (const [step, figure] of rows) console.log(`${step.padEnd(width)}  ${figure}`);
