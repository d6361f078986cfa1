/**
 * openCypher TCK runner. Usage:
 *   npm run tck [-- --filter <text>] [--verbose] [--update-baseline]
 * Prints passed / in scope / total, a per-folder breakdown and our own dialect features
 * (test/cypher/features) separately. Exits non-zero when a case outside the expected-failure
 * baseline fails, or a baseline case passes (the baseline must stay exact).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareWithBaseline, loadScenarios, readBaseline, runSuite, tckRoot } from "./tck/run-suite.js";

const BASELINE = "test/cypher/tck-expected-failures.txt";
const EXTRA_FEATURES = "test/cypher/features";

const args = process.argv.slice(2);
const filterAt = args.indexOf("--filter");
const filter = filterAt >= 0 ? (args[filterAt + 1] ?? "") : "";
const verbose = args.includes("--verbose");
const update = args.includes("--update-baseline");

const root = tckRoot();
const all = loadScenarios(join(root, "features"));
const selected = all.filter((s) => filter === "" || s.key.includes(filter));
const started = performance.now();
const report = runSuite(selected, join(root, "graphs"));
const seconds = ((performance.now() - started) / 1000).toFixed(1);

console.log("TCK by folder (passed / in scope):");
for (const [folder, f] of [...report.byFolder].sort()) {
  console.log(`  ${folder.padEnd(44)} ${String(f.passed).padStart(4)} / ${String(f.inScope).padStart(4)}`);
}
console.log(`Out of scope: ${[...report.outOfScope].map(([k, v]) => `${k} ${v}`).join(", ")}`);
const pct = report.inScope === 0 ? 0 : (100 * report.passed) / report.inScope;
console.log(`TCK: ${report.passed} passed / ${report.inScope} in scope / ${report.total} total (${pct.toFixed(2)}%) in ${seconds}s`);

const extra = loadScenarios(EXTRA_FEATURES, false).filter((s) => filter === "" || s.key.includes(filter));
const extraReport = runSuite(extra, join(root, "graphs"));
console.log(`Dialect features: ${extraReport.passed} passed / ${extraReport.inScope}`);

if (verbose) {
  for (const [key, reason] of [...report.failures, ...extraReport.failures]) console.log(`FAIL ${key}\n  ${reason.replace(/\n/g, "\n  ")}`);
}

const baseline = readBaseline(BASELINE);
if (update && filter === "") {
  const header = "# TCK scenarios expected to fail (one key per line). Kept exact by `npm run tck`.\n";
  writeFileSync(
    BASELINE,
    header +
      [...report.failures.keys()]
        .sort()
        .map((k) => `${k}\n`)
        .join(""),
  );
  console.log(`Baseline rewritten with ${report.failures.size} entries.`);
}
const { unexpectedFailures, unexpectedPasses } = compareWithBaseline(selected, report.failures, update ? new Set(report.failures.keys()) : baseline);
const extraFailures = [...extraReport.failures.keys()];
for (const k of unexpectedFailures) console.log(`UNEXPECTED FAILURE ${k}\n  ${report.failures.get(k)?.replace(/\n/g, "\n  ")}`);
for (const k of unexpectedPasses) console.log(`NOW PASSING (remove from baseline) ${k}`);
for (const k of extraFailures) console.log(`DIALECT FEATURE FAILURE ${k}\n  ${extraReport.failures.get(k)}`);
if (unexpectedFailures.length + unexpectedPasses.length + extraFailures.length > 0) process.exitCode = 1;
