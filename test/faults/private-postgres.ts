import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../helpers/webhook-receiver.js";
import { type TestDb, testDbAt } from "../helpers/test-db.js";

const BIN = "/usr/lib/postgresql/15/bin";
const run = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own (initdb into a temporary directory, its own port), so
 * that it can be stopped and started while the service runs. Never the shared one. The tests run
 * as root and PostgreSQL refuses to, so its commands run as the postgres user.
 */
export interface PrivatePostgres {
  readonly port: number;
  readonly db: TestDb;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster (if running) and removes its files. */
  destroy(): Promise<void>;
}

const asPostgres = (args: string[]) => run("runuser", ["-u", "postgres", "--", ...args], { maxBuffer: 4 * 1024 * 1024 });

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = mkdtempSync(join(tmpdir(), "cs-pg-"));
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
  chownSync(root, uid, gid);
  const data = join(root, "data");
  const port = await freePort();
  await asPostgres([`${BIN}/initdb`, "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = async (): Promise<void> => {
    await asPostgres([`${BIN}/pg_ctl`, "-D", data, "-o", options, "-l", join(root, "log"), "-w", "start"]);
  };
  const stop = async (): Promise<void> => {
    await asPostgres([`${BIN}/pg_ctl`, "-D", data, "-m", "fast", "-w", "stop"]);
  };
  await start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query("CREATE DATABASE contextstore");
  await admin.end();
  const dataDir = mkdtempSync(join(tmpdir(), "cs-test-"));
  let stopped = false;
  return {
    port,
    db: testDbAt(dataDir, `postgres://postgres@127.0.0.1:${port}/contextstore`),
    async stop() {
      await stop();
      stopped = true;
    },
    async start() {
      await start();
      stopped = false;
    },
    async destroy() {
      if (!stopped) await stop().catch(() => undefined); // already down: nothing to stop
      rmSync(root, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
