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

/**
 * Builds both parts; exits the process with the failing step's code. Each step says on stderr what
 * it does before it starts and how long it took once done: a first build runs for a minute or more.
 */
export function build() {
  const startedAt = new Date(); // a file saved during the build is newer than the stamp: the next check rebuilds
  const require = createRequire(import.meta.url);
  const tsc = require.resolve("typescript/bin/tsc");
  const vite = join(dirname(require.resolve("vite/package.json")), "bin", "vite.js");
  const steps = [
    { what: "compiling the server (tsc)", args: [tsc, "-p", "tsconfig.build.json"] },
    { what: "building the console (vite)", args: [vite, "build", "--config", join("console", "vite.config.ts")] },
  ];
  for (const [i, step] of steps.entries()) {
    const label = `[${i + 1}/${steps.length}] ${step.what}`;
    console.error(`${label}…`);
    const stepStartedAt = performance.now();
    const built = spawnSync(process.execPath, step.args, { stdio: "inherit" });
    const seconds = ((performance.now() - stepStartedAt) / 1000).toFixed(1);
    if (built.status !== 0) {
      console.error(`${label}: failed after ${seconds} s`);
      process.exit(built.status ?? 1);
    }
    console.error(`${label}: done in ${seconds} s`);
  }
  writeFileSync(STAMP, `${startedAt.toISOString()}\n`);
  utimesSync(STAMP, startedAt, startedAt);
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes("--if-stale") || isStale()) build();
}
