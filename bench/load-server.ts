// The service under bench:load: its own child process (so its resident memory and CPU are its
// alone), listening on 127.0.0.1, on the bench store.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { cpSync, openSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort } from "../test/helpers/webhook-receiver.js";
import { SERVICE_NODE_FLAGS } from "./service-node-flags.js";
import { benchText, openBenchStore, type BenchStore, type BenchText } from "./bench-store.js";
import { childrenOf, rssMb, statCpuSeconds } from "./proc-stat.js";

export interface LoadServer {
  readonly proc: ChildProcess;
  readonly pid: number;
  readonly baseUrl: string;
  /** VmRSS of the process in MB (worker threads included: they share it). */
  rssMb(): number;
  /** User + system CPU seconds the process has used so far. */
  cpuSeconds(): number;
  /** The same for its main thread alone (the request thread; not the model and GC threads). */
  mainThreadCpuSeconds(): number;
  /** Each service process's main thread (the primary's too, when there is one): pid and CPU seconds so far. */
  mainThreads(): Array<{ pid: number; cpuSeconds: number }>;
  stop(): Promise<void>;
}

/** LOAD_SERVER_ROOT runs another checkout's service (an earlier revision, to compare before and after). */
const ROOT = process.env.LOAD_SERVER_ROOT ?? fileURLToPath(new URL("..", import.meta.url));

/**
 * Starts `src/main.ts` (through tsx) or, with LOAD_SERVER=dist, the built `dist/main.js`.
 * LOAD_SERVER_NODE_ARGS adds node flags (`--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it);
 * LOAD_SERVER_STDOUT names a file for what the service prints (`--trace-gc`'s lines, say), and
 * LOAD_LOG_LEVEL its log level (default warn; info logs every request with its response time).
 */
export async function startLoadServer(env: Record<string, string>): Promise<LoadServer> {
  const port = await freePort();
  const entry = process.env.LOAD_SERVER === "dist" ? ["dist/main.js"] : ["--import", "tsx", "src/main.ts"];
  const nodeArgs = (process.env.LOAD_SERVER_NODE_ARGS ?? "").split(" ").filter((a) => a.length > 0);
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, ...entry], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: process.env.LOAD_LOG_LEVEL ?? "warn", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", process.env.LOAD_SERVER_STDOUT === undefined ? "ignore" : openSync(process.env.LOAD_SERVER_STDOUT, "w"), "inherit"],
  });
  const pid = proc.pid;
  if (pid === undefined) throw new Error("the service did not start");
  const exited = once(proc, "exit");
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`the service exited with ${proc.exitCode} while starting`);
    // Refused connections are expected until it listens; anything else shows as the deadline's error.
    const ok = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error("the service did not answer /healthz within 120 s");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const serviceProcesses = (): number[] => [pid, ...childrenOf(pid)];
  // The main thread's task id is the process id.
  const mainThreads = (): Array<{ pid: number; cpuSeconds: number }> =>
    serviceProcesses().flatMap((p) => {
      try {
        return [{ pid: p, cpuSeconds: statCpuSeconds(`/proc/${p}/task/${p}/stat`) }];
      } catch {
        // the process ended
        return [];
      }
    });
  return {
    proc,
    pid,
    baseUrl,
    // With PROCESSES above 1 the service is the primary and its children: summed over them all
    // (the CPU of a child that died and was replaced is not counted).
    rssMb: () => serviceProcesses().reduce((sum, p) => sum + (rssMb(p) || 0), 0),
    cpuSeconds: () => serviceProcesses().reduce((sum, p) => sum + statCpuSeconds(`/proc/${p}/stat`), 0),
    mainThreadCpuSeconds: () => mainThreads().reduce((sum, t) => sum + t.cpuSeconds, 0),
    mainThreads,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The bench store of `chunks` knowledge chunks (written now, or reused with BENCH_DATA_DIR) and the
 * service on it, as bench:load and bench:load-kinds drive it. A kept store is never written by the
 * load: the service runs on a fresh copy of it (`<BENCH_DATA_DIR>.run`), so every run meets the same
 * 100,000 chunks and not those plus every earlier run's ingests (BENCH_GROW=1 runs on the kept store itself).
 */
export async function startLoadTarget(chunks: number): Promise<{ text: BenchText; store: BenchStore; server: LoadServer }> {
  const text = benchText();
  // The in-process application only writes (or finds) the store and makes a key; the service runs apart.
  const store = await openBenchStore({ chunks, distinctVectors: 1_000, text, env: { WARM_UP_INDEXES: "false" } });
  await store.app.close();
  let dataDir = store.db.dataDir;
  let databaseUrl = store.db.databaseUrl;
  if (store.kept && process.env.BENCH_GROW !== "1") {
    const copy = `${dataDir.replace(/\/+$/, "")}.run`;
    const started = performance.now();
    rmSync(copy, { recursive: true, force: true });
    cpSync(dataDir, copy, { recursive: true });
    if (databaseUrl !== null) databaseUrl = await copyDatabase(databaseUrl);
    console.log(`copied the kept store to ${copy} in ${((performance.now() - started) / 1000).toFixed(1)} s; the service runs on the copy`);
    dataDir = copy;
  }
  const server = await startLoadServer({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl ?? "",
    // One client key sends all the traffic: the per-key limit (1,200/min by default) is for tenants, not this bench.
    RATE_LIMIT_PER_MINUTE: "0",
    // 10 feedback submissions a second from one organization: the per-organization cap (100/min) is raised likewise.
    FEEDBACK_PER_MINUTE: "100000",
  });
  return { text, store, server };
}

/** A fresh copy (`<name>_run`, replacing the last one) of a kept PostgreSQL bench database; its URL. */
async function copyDatabase(url: string): Promise<string> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  // Connected to another database: a template must have no connections while it is copied.
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name}_run WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}_run TEMPLATE ${name}`);
  } finally {
    await client.end();
  }
  target.pathname = `/${name}_run`;
  return target.toString();
}
