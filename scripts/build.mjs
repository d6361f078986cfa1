// Builds dist/: the server (tsc) and the web console (vite), then writes dist/.build-stamp.
// `npm run build` always builds; `npm start` (scripts/start.mjs) and tests build only when a file
// under src/ or console/ or a tsconfig is newer than the stamp (`--if-stale`).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const STAMP = join("dist", ".build-stamp");

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

function stampMtime() {
  try {
    return statSync(STAMP).mtimeMs;
  } catch {
    return -1;
  }
}

/** True when dist/ may not match the sources (or was never built). */
export function isStale() {
  return Math.max(newestMtime("src"), newestMtime("console"), newestMtime("tsconfig.json"), newestMtime("tsconfig.build.json")) > stampMtime();
}

/** Builds both parts; exits the process with the failing step's code. */
export function build() {
  const startedAt = new Date(); // a file saved during the build is newer than the stamp: the next check rebuilds
  const require = createRequire(import.meta.url);
  const tsc = require.resolve("typescript/bin/tsc");
  const vite = join(dirname(require.resolve("vite/package.json")), "bin", "vite.js");
  for (const args of [
    [tsc, "-p", "tsconfig.build.json"],
    [vite, "build", "--config", join("console", "vite.config.ts")],
  ]) {
    const built = spawnSync(process.execPath, args, { stdio: "inherit" });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
  utimesSync(STAMP, startedAt, startedAt);
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes("--if-stale") || isStale()) build();
}
