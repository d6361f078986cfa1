// Runs every test file under test/ with Node's built-in runner, compiled to JavaScript first
// (scripts/test-build.mjs).
// Node 20's --test does not expand globs itself, so the file list is built here.
// Usage: node scripts/run-tests.mjs [--suffix .fault.ts] [substring filter ...]
//   --suffix   which files are test files (default .test.ts; the fault suite is .fault.ts)
// Environment:
//   TEST_CONCURRENCY   test files run at once (default 2)
//   TEST_TIMEOUT_MS    per-test time limit (default 600000): a test past it fails
//   TEST_RUN_TIMEOUT_MS  limit of the whole run (default 1800000): past it every process of the
//                      run (the runner's process group: test files, servers they spawned) is
//                      killed and the run fails
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { buildTestTree, compiledPath, removeTestTree } from "./test-build.mjs";

function collect(dir, suffix) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...collect(full, suffix));
    else if (name.endsWith(suffix)) out.push(full);
  }
  return out;
}

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    console.error(`${name} must be a positive integer, got '${raw}'`);
    process.exit(2);
  }
  return value;
}

const args = process.argv.slice(2);
const suffixAt = args.indexOf("--suffix");
const suffix = suffixAt >= 0 ? args[suffixAt + 1] : ".test.ts";
if (!suffix || suffix.startsWith("--")) {
  console.error("--suffix needs a file ending, e.g. --suffix .fault.ts");
  process.exit(2);
}
const filters = suffixAt >= 0 ? [...args.slice(0, suffixAt), ...args.slice(suffixAt + 2)] : args;
const files = collect("test", suffix)
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
const concurrency = positiveInt("TEST_CONCURRENCY", 2);
const testTimeoutMs = positiveInt("TEST_TIMEOUT_MS", 600_000);
const runTimeoutMs = positiveInt("TEST_RUN_TIMEOUT_MS", 30 * 60_000);

// Test files run as JavaScript compiled for this run (see scripts/test-build.mjs), not through tsx.
const treeRoot = await buildTestTree();

// The run gets a process group of its own (detached), so that on timeout one signal reaches
// every test file and every server or fixture they spawned.
const child = spawn(
  process.execPath,
  [
    "--enable-source-maps",
    "--test",
    `--test-concurrency=${concurrency}`,
    `--test-timeout=${testTimeoutMs}`,
    // A file whose tests are done exits even if a handle (a server, a timer) was left open.
    "--test-force-exit",
    "--test-reporter=spec",
    ...files.map((file) => compiledPath(treeRoot, file)),
  ],
  { stdio: "inherit", env: process.env, detached: true },
);

const killGroup = () => {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // the group is already gone
  }
};

const overall = setTimeout(() => {
  console.error(
    `\n*** TEST RUN TIMED OUT: still running after ${runTimeoutMs} ms (TEST_RUN_TIMEOUT_MS); ` +
      `killing process group ${child.pid} (every test file and the processes they spawned). FAILED. ***\n`,
  );
  killGroup();
  removeTestTree(treeRoot);
  process.exit(124);
}, runTimeoutMs);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    killGroup();
    removeTestTree(treeRoot);
    process.exit(130);
  });
}

child.on("exit", (code) => {
  clearTimeout(overall);
  // Anything the test files left behind in the group goes with the run.
  killGroup();
  removeTestTree(treeRoot);
  process.exit(code ?? 1);
});
