import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { compareWithBaseline, loadScenarios, readBaseline, runSuite, tckRoot } from "../../scripts/tck/run-suite.js";

const FOLDERS = [
  "clauses/match/",
  "clauses/create/",
  "clauses/merge/",
  "clauses/delete/",
  "clauses/with/",
  "clauses/return/",
  "clauses/union/",
  "expressions/aggregation/",
];

void test("a TCK subset across clause folders matches the expected-failure baseline", () => {
  const root = tckRoot();
  const scenarios = loadScenarios(join(root, "features")).filter((s) => FOLDERS.some((f) => s.key.startsWith(f)));
  const report = runSuite(scenarios, join(root, "graphs"));
  assert.ok(report.inScope >= 300, `expected a few hundred in-scope cases, got ${report.inScope}`);
  const { unexpectedFailures, unexpectedPasses } = compareWithBaseline(scenarios, report.failures, readBaseline("test/cypher/tck-expected-failures.txt"));
  assert.deepEqual(unexpectedFailures, []);
  assert.deepEqual(unexpectedPasses, []);
});
