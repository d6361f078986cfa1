// `npm start`: builds dist/ only when a source file changed since the last build, then runs
// the service in this same process (so signals reach it directly; no child to forward them to).
// The stamp file is written after a successful build of both the server (tsc) and the web
// console (vite); any file under src/ or console/ or a tsconfig newer than it means dist/ may be stale. Deleted sources leave their old .js behind, which nothing imports.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

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

const sourcesChanged = Math.max(newestMtime("src"), newestMtime("console"), newestMtime("tsconfig.json"), newestMtime("tsconfig.build.json")) > stampMtime();
if (sourcesChanged) {
  const startedAt = new Date(); // a file saved during the build is newer than the stamp: next start rebuilds
  const require = createRequire(import.meta.url);
  const tsc = require.resolve("typescript/bin/tsc");
  const vite = join(dirname(require.resolve("vite/package.json")), "bin", "vite.js");
  console.error("building dist/ (sources changed since the last build)...");
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
await import(pathToFileURL(join(process.cwd(), "dist", "main.js")).href);
