import { existsSync, readFileSync } from "node:fs";
import { loadScenarios } from "./load-features.js";
import type { Scenario } from "./load-features.js";
import { runScenario } from "./run-scenario.js";

export const TCK_ROOT = "/work/shared/tck";

export interface SuiteReport {
  readonly total: number;
  readonly inScope: number;
  readonly passed: number;
  readonly outOfScope: Map<string, number>;
  readonly byFolder: Map<string, { passed: number; inScope: number }>;
  readonly failures: Map<string, string>;
}

export function tckRoot(): string {
  return process.env.TCK_DIR ?? TCK_ROOT;
}

export function runSuite(scenarios: readonly Scenario[], graphsDir: string): SuiteReport {
  const outOfScope = new Map<string, number>();
  const byFolder = new Map<string, { passed: number; inScope: number }>();
  const failures = new Map<string, string>();
  let passed = 0;
  let inScope = 0;
  for (const s of scenarios) {
    if (s.outOfScope !== null) {
      outOfScope.set(s.outOfScope, (outOfScope.get(s.outOfScope) ?? 0) + 1);
      continue;
    }
    inScope++;
    const folder = byFolder.get(s.folder) ?? { passed: 0, inScope: 0 };
    byFolder.set(s.folder, folder);
    folder.inScope++;
    const outcome = runScenario(s, graphsDir);
    if (outcome.ok) {
      passed++;
      folder.passed++;
    } else failures.set(s.key, outcome.reason);
  }
  return { total: scenarios.length, inScope, passed, outOfScope, byFolder, failures };
}

export function readBaseline(path: string): Set<string> {
  if (!existsSync(path)) return new Set();
  return new Set(
    readFileSync(path, "utf8")
      .split("\n")
      .map((l) => l.trimEnd())
      .filter((l) => l !== "" && !l.startsWith("#")),
  );
}

/** Cases that fail but are not listed, and listed cases (among those run) that now pass. */
export function compareWithBaseline(
  ran: readonly Scenario[],
  failures: ReadonlyMap<string, string>,
  baseline: ReadonlySet<string>,
): { unexpectedFailures: string[]; unexpectedPasses: string[] } {
  const unexpectedFailures = [...failures.keys()].filter((k) => !baseline.has(k));
  const unexpectedPasses = ran.filter((s) => s.outOfScope === null && baseline.has(s.key) && !failures.has(s.key)).map((s) => s.key);
  return { unexpectedFailures, unexpectedPasses };
}

export { loadScenarios };
