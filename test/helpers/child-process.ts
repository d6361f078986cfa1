import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

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

/** `node --import tsx <script>` as an owned child (the server, test fixtures). */
export function spawnTsx(t: Cleanup, script: string, env: NodeJS.ProcessEnv, stdout: "inherit" | "pipe" = "inherit"): ChildProcess {
  return spawnOwned(t, process.execPath, ["--import", "tsx", script], { env, stdio: ["ignore", stdout, "inherit"] });
}
