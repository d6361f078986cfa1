// The built CLI (dist/cli/main.js), as the package ships it: tests that run `context-store` as a
// real command build it first when it is missing or older than any file under src/.
import { execFile } from "node:child_process";
import { mkdir, readdir, rm, stat, writeFile, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(".");
export const BUILT_CLI = join(ROOT, "dist", "cli", "main.js");
// One build at a time across test files running in parallel; the holder's pid tells a live lock from a left-over one.
const LOCK = join(ROOT, ".tmp", "build.lock");

async function newestSourceMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestSourceMtime(path) : (await stat(path)).mtimeMs);
  }
  return newest;
}

async function isStale(): Promise<boolean> {
  const built = await stat(BUILT_CLI).catch(() => null);
  return built === null || built.mtimeMs < (await newestSourceMtime(join(ROOT, "src")));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH: no such process, so the lock was left by a run that died.
    return false;
  }
}

async function takeLock(deadline: number): Promise<boolean> {
  await mkdir(join(ROOT, ".tmp"), { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK);
      await writeFile(join(LOCK, "pid"), String(process.pid));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(await readFile(join(LOCK, "pid"), "utf8").catch(() => "0"));
    if (holder > 0 && !alive(holder)) await rm(LOCK, { recursive: true, force: true });
    else if (!(await isStale())) return false;
    if (Date.now() > deadline) throw new Error(`another test run holds ${LOCK}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs `npm run build` when dist/cli/main.js is missing or stale; returns its path. */
export async function ensureBuiltCli(): Promise<string> {
  if (!(await isStale())) return BUILT_CLI;
  if (!(await takeLock(Date.now() + 300_000))) return BUILT_CLI;
  try {
    if (await isStale()) await promisify(execFile)("npm", ["run", "build"], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
  return BUILT_CLI;
}
