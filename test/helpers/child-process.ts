import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

/** What a test or suite context offers for cleanup (node:test's TestContext and SuiteContext). */
interface Cleanup {
  after(fn: () => void | Promise<void>): void;
}

const live = new Set<ChildProcess>();

function killNow(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(child.pid, "SIGKILL");
  } catch {
    // The child already exited: nothing left to kill.
  }
}

// The test file's process ending for any reason (a timeout, an uncaught error) takes its children along.
process.on("exit", () => {
  for (const child of live) killNow(child);
});

/**
 * Spawns a child process that cannot outlive its test: it is SIGKILLed by pid when the test ends,
 * fails or times out (t.after), and when the test file's process exits.
 */
export function spawnOwned(t: Cleanup, command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  live.add(child);
  child.once("exit", () => live.delete(child));
  t.after(() => killNow(child));
  return child;
}

/** The checkout's root, or the run's compiled mirror of it (scripts/test-build.mjs). */
const ROOT = resolve(import.meta.dirname, "..", "..");

/**
 * Node's arguments to run a TypeScript file of the checkout (`src/main.ts`, a fixture): when the
 * test runs compiled (npm test), the same run's JavaScript of it, which starts without tsx's loader
 * (about a second less per process); when the test file runs under tsx, the source through tsx.
 */
export function nodeArgs(script: string): string[] {
  const compiled = resolve(ROOT, script.replace(/\.ts$/, ".js"));
  return import.meta.url.endsWith(".js") && existsSync(compiled) ? [compiled] : ["--import", "tsx", script];
}

/** A TypeScript file of the checkout (see nodeArgs) as an owned child (the server, test fixtures). */
export function spawnTsx(t: Cleanup, script: string, env: NodeJS.ProcessEnv, stdout: "inherit" | "pipe" = "inherit"): ChildProcess {
  return spawnOwned(t, process.execPath, nodeArgs(script), { env, stdio: ["ignore", stdout, "inherit"] });
}
