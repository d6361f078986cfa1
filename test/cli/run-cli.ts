// Runs the BUILT `context-store` binary (dist/cli/main.js) as a user would, against a service a
// test started; test files build it first with ensureBuiltCli (test/helpers/built-cli.ts).
import type { TestContext } from "node:test";
import { BUILT_CLI as CLI } from "../helpers/built-cli.js";
import { spawnOwned } from "../helpers/child-process.js";

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** The environment a user would set: the service's address, the key and the database. */
export function cliEnv(settings: { url: string; key?: string; database?: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CONTEXT_STORE_URL: settings.url };
  delete env.CONTEXT_STORE_API_KEY;
  delete env.CONTEXT_STORE_DATABASE;
  delete env.CONTEXT_STORE_COLLECTION;
  if (settings.key !== undefined) env.CONTEXT_STORE_API_KEY = settings.key;
  if (settings.database !== undefined) env.CONTEXT_STORE_DATABASE = settings.database;
  return env;
}

/**
 * Runs a command to its end. Asynchronous on purpose: the service runs in the test's own process,
 * so a synchronous spawn would stop it from answering.
 */
function runProgram(t: TestContext, command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const child = spawnOwned(t, command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code: code ?? (signal ? -1 : 0), out: out.trim(), err: err.trim() }));
  });
}

export function runCli(t: TestContext, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return runProgram(t, process.execPath, [CLI, ...args], env);
}

/** Runs the command with --json and parses its stdout; fails with its stderr when it exits non-zero. */
export async function runJson<T>(t: TestContext, args: readonly string[], env: NodeJS.ProcessEnv): Promise<T> {
  const res = await runCli(t, [...args, "--json"], env);
  if (res.code !== 0) throw new Error(`context-store ${args.join(" ")} exited ${res.code}: ${res.err}\n${res.out}`);
  return JSON.parse(res.out) as T;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs the command in a pseudo-terminal (`script`), so stdout and stderr are a TTY; returns what the terminal showed. */
export function runInTerminal(t: TestContext, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  const command = [process.execPath, CLI, ...args].map(quote).join(" ");
  return runProgram(t, "script", ["-qfec", command, "/dev/null"], { ...env, COLUMNS: "120", TERM: "xterm" });
}
