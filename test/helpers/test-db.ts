import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * One isolated store per test app: a temporary DATA_DIR always, and with DATABASE_URL
 * set, a fresh PostgreSQL database created for the test and dropped afterwards.
 */
export interface TestDb {
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  drop(): Promise<void>;
}

export const backendUnderTest = (): "postgres" | "sqlite" => (process.env.DATABASE_URL ? "postgres" : "sqlite");

export async function createTestDb(): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), "cs-test-"));
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    return { dataDir, databaseUrl: null, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `cs_t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
