// Compiles the TypeScript of src/, test/, bench/ and scripts/ to JavaScript (esbuild: types stripped, nothing
// checked; `npm test` type-checks first) in a directory of the run's own, so that test files run on
// plain Node. Under tsx every import of every test process (and of every worker thread it starts)
// crossed to tsx's loader thread: measured on 2026-11-29, a test file's process spent about 3.5 s
// more CPU that way (13.7 s against 10.2 s for test/api/identifiers), a quarter of the suite's CPU.
//
// The directory mirrors the checkout: next to each emitted .js file sits a link to its .ts source,
// every other file under the three folders is a link, and every other top-level entry (package.json,
// dist/, console/, scripts/ ...) is a link too, so a path a test builds from import.meta.url lands
// where it did. An emitted file takes its source's modification time, so a check "is X newer than
// its build" reads the same here. Node packages resolve from the checkout's node_modules (the
// directory is inside it).
import { build } from "esbuild";
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync } from "node:fs";
import { join, resolve } from "node:path";

const COMPILED = ["src", "test", "bench", "scripts"];
/** Kept out of the mirror: our own output, and what Node finds by walking up anyway. */
const NOT_MIRRORED = new Set([".git", "node_modules", ".test-build", ...COMPILED]);
export const TEST_BUILD_ROOT = ".test-build";

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

const isCompiled = (file) => file.endsWith(".ts") && !file.endsWith(".d.ts");

/** A run directory (one per run: runs at once do not share one) holding the compiled mirror. */
export async function buildTestTree() {
  removeAbandoned();
  const root = resolve(TEST_BUILD_ROOT, String(process.pid));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const name of readdirSync(".")) {
    if (!NOT_MIRRORED.has(name)) symlinkSync(resolve(name), join(root, name));
  }
  const files = COMPILED.flatMap((dir) => walk(dir, []));
  for (const file of files) {
    const target = join(root, file);
    mkdirSync(join(target, ".."), { recursive: true });
    symlinkSync(resolve(file), target);
  }
  const entryPoints = files.filter(isCompiled);
  await build({
    entryPoints,
    outdir: root,
    outbase: ".",
    format: "esm",
    platform: "node",
    target: "node20",
    // Failures point at the TypeScript line (the runner starts Node with --enable-source-maps).
    sourcemap: "inline",
    sourcesContent: false,
    logLevel: "warning",
  });
  for (const file of entryPoints) {
    const { atime, mtime } = statSync(file);
    utimesSync(join(root, file.replace(/\.ts$/, ".js")), atime, mtime);
  }
  return root;
}

/** The compiled path of a test file (test/a/b.test.ts -> <root>/test/a/b.test.js). */
export const compiledPath = (root, file) => join(root, file.replace(/\.ts$/, ".js"));

export function removeTestTree(root) {
  rmSync(root, { recursive: true, force: true });
}

/** Directories left by runs that were killed before they could remove their own. */
function removeAbandoned() {
  if (!existsSync(TEST_BUILD_ROOT)) return;
  for (const name of readdirSync(TEST_BUILD_ROOT)) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid || !isAlive(pid)) {
      const dir = join(TEST_BUILD_ROOT, name);
      if (lstatSync(dir).isDirectory()) rmSync(dir, { recursive: true, force: true });
    }
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}
