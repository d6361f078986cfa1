// Browser tests need the built console. A fresh clone has none, and a checkout with edited console
// sources has a stale one: either way it is built here with Vite's JS API (about two seconds).
// Test files run in parallel, so the build takes a lock (an atomic mkdir) and writes to a
// directory of its own, renamed into place, so no test ever serves a half-written build.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "vite";

const ROOT = resolve(import.meta.dirname, "..", "..");
const OUT = join(ROOT, "dist", "console");
const LOCK = join(ROOT, "dist", ".console-build.lock");
/** A build takes seconds; a lock older than this was left by a killed run. */
const STALE_LOCK_MS = 120_000;

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function builtAt(): number {
  try {
    return statSync(join(OUT, "index.html")).mtimeMs;
  } catch {
    // never built (or removed): older than any source
    return -1;
  }
}

const isCurrent = (): boolean => builtAt() >= Math.max(newestMtime(join(ROOT, "console")), newestMtime(join(ROOT, "src", "client")));

function tryLock(): boolean {
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // the other builder removed it in between: try again on the next round
    }
    return false;
  }
}

/** Makes dist/console current with console/ and src/client/, building it when needed. */
export async function ensureConsoleBuilt(): Promise<string> {
  const deadline = Date.now() + STALE_LOCK_MS + 30_000;
  while (!isCurrent()) {
    if (Date.now() > deadline) throw new Error("the console build did not finish (another test run holds dist/.console-build.lock)");
    if (!tryLock()) {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (isCurrent()) break;
      const staging = `${OUT}.build-${process.pid}`;
      await build({ configFile: join(ROOT, "console", "vite.config.ts"), logLevel: "warn", build: { outDir: staging, emptyOutDir: true } });
      const old = `${OUT}.old-${process.pid}`;
      rmSync(old, { recursive: true, force: true });
      try {
        renameSync(OUT, old);
      } catch {
        // no previous build to move aside
      }
      renameSync(staging, OUT);
      rmSync(old, { recursive: true, force: true });
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
  return OUT;
}
