import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { TestContext } from "node:test";
import { nodeArgs, spawnOwned } from "./child-process.js";
import { eventually } from "./harness.js";
import type { TestDb } from "./test-db.js";
import { freePort } from "./webhook-receiver.js";

export interface ServerProcess {
  readonly proc: ChildProcess;
  readonly baseUrl: string;
  readonly port: number;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Everything it wrote to stderr so far (captured only with `captureStderr`; else inherited). */
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

/**
 * Runs `src/main.ts` as a real process on the test store, as `npm start` would (without the
 * build), and waits until /healthz answers. The process is killed by pid when the test ends,
 * whether it passed, failed or timed out.
 */
export interface ServerProcessOptions {
  /** What node runs: `src/main.ts` through tsx by default; `["scripts/start.mjs"]` is `npm start`. */
  readonly args?: readonly string[];
  readonly captureStderr?: boolean;
  /** How long the first /healthz may take (default 60 s). */
  readonly readyTimeoutMs?: number;
}

export async function startServerProcess(
  t: TestContext,
  db: TestDb,
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  // Owned: SIGKILLed by pid when the test ends, fails or times out, or when the test file's process exits.
  const proc = spawnOwned(t, process.execPath, options.args ?? nodeArgs("src/main.ts"), {
    env: { ...process.env, PORT: String(port), DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? "", LOG_LEVEL: "warn", EMBEDDING_WORKERS: "1", ...env },
    stdio: ["ignore", "pipe", options.captureStderr ? "pipe" : "inherit"],
  });
  let out = "";
  let err = "";
  proc.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  proc.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = once(proc, "exit");
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  // The test ends once the process is gone (killed here too, not relying on the order of after hooks),
  // and the store is dropped only after it stopped (with PROCESSES above 1, after all its processes).
  t.after(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    await exited;
  });
  db.stopBeforeDrop(stop);
  const baseUrl = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (proc.exitCode !== null) throw new Error(`the server exited with ${proc.exitCode}: ${out}${err}`);
      return (await fetch(`${baseUrl}/healthz`).catch(() => null))?.ok;
    },
    options.readyTimeoutMs ?? 60_000,
    100,
  );
  return { proc, baseUrl, port, stdout: () => out, stderr: () => err, stop };
}
