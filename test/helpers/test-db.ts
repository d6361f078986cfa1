import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openStore } from "../../src/platform/store/db.js";
import { migrate } from "../../src/platform/store/migrate.js";
import { migrationChecksum } from "../../src/platform/store/migrations/checksum.js";
import { MIGRATIONS } from "../../src/platform/store/migrations/index.js";

/**
 * One isolated store per test app: a temporary DATA_DIR always, and with DATABASE_URL
 * set, a fresh PostgreSQL database created for the test and dropped afterwards.
 */
export interface TestDb {
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /**
   * Registers something that uses the store (a server process) to be stopped before the store is
   * removed. After hooks run in the order they were added, and a test usually adds the store's
   * drop before it starts the process: without this, the drop would remove the files and database
   * of a process still writing to them.
   */
  stopBeforeDrop(stop: () => Promise<void>): void;
  /** Stops what was registered with `stopBeforeDrop`, then removes the data folder and database. */
  drop(): Promise<void>;
}

export interface TestDbOptions {
  /**
   * PostgreSQL only: copy the database from a template on which today's migrations already ran
   * (about 55 ms) instead of leaving it empty for the application to migrate (about 390 ms). The
   * application's own migrate() still runs at start and finds nothing to apply. Tests of migrating
   * itself leave this off.
   */
  readonly migrated?: boolean;
}

export const backendUnderTest = (): "postgres" | "sqlite" => (process.env.DATABASE_URL ? "postgres" : "sqlite");

// Any constant: it serialises the template's creation between test files running at once.
const TEMPLATE_LOCK = 7_402_118;

function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The template's name is a digest of the migrations: any change to them makes (and uses) a new one. */
function templateName(): string {
  const digest = createHash("sha256")
    .update(MIGRATIONS.map((m) => `${m.version}:${migrationChecksum(m)}`).join(","))
    .digest("hex");
  return `cs_tpl_${digest.slice(0, 16)}`;
}

/**
 * Creates the migrated template once per migration set. It is built under another name and
 * renamed when complete, so a test file never copies a half-migrated template, and no connection
 * to it stays open (PostgreSQL copies only a database nobody is connected to).
 */
async function ensureTemplate(admin: pg.Client, baseUrl: string): Promise<string> {
  const name = templateName();
  const exists = async (): Promise<boolean> => (await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  if (await exists()) return name;
  await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
  try {
    if (await exists()) return name;
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${building}`);
    const store = openStore({ dataDir: tmpdir(), databaseUrl: databaseUrl(baseUrl, building) });
    try {
      await migrate(store);
    } finally {
      await store.close();
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    return name;
  } finally {
    await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK]);
  }
}

/**
 * A test store in an existing data folder (and, with a URL, a database someone else drops):
 * dropping it stops what was registered on it, then removes the folder.
 */
export function testDbAt(dataDir: string, url: string | null): TestDb {
  const users: Array<() => Promise<void>> = [];
  return {
    dataDir,
    databaseUrl: url,
    stopBeforeDrop: (stop) => void users.push(stop),
    drop: async () => {
      for (const stop of users.splice(0)) await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function createTestDb(options: TestDbOptions = {}): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), "cs-test-"));
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return testDbAt(dataDir, null);
  const name = `cs_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    const template = options.migrated === true ? await ensureTemplate(admin, baseUrl) : null;
    await admin.query(template === null ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const folder = testDbAt(dataDir, databaseUrl(baseUrl, name));
  return {
    ...folder,
    drop: async () => {
      await folder.drop();
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
