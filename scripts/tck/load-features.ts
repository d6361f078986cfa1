import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from "@cucumber/gherkin";
import { IdGenerator } from "@cucumber/messages";
import type { Pickle } from "@cucumber/messages";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface Scenario {
  /** Stable identifier: `<feature path>:<line> <name>`; the line is the example row for outlines. */
  readonly key: string;
  readonly folder: string;
  readonly pickle: Pickle;
  /** Why the scenario is out of scope for our dialect, or null when it is in scope. */
  readonly outOfScope: string | null;
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const f = join(dir, n);
      return statSync(f).isDirectory() ? walk(f) : f.endsWith(".feature") ? [f] : [];
    });
}

const TEMPORAL = /date\(|datetime\(|time\(|duration\(|localtime/i;

function classify(path: string, pickle: Pickle): string | null {
  if (pickle.tags.some((t) => t.name === "@ignore")) return "@ignore";
  if (path.startsWith("clauses/call/")) return "procedure CALL";
  if (path.startsWith("expressions/existentialSubqueries/")) return "EXISTS {}";
  if (path.startsWith("expressions/temporal/")) return "temporal types";
  const text = pickle.steps.map((s) => `${s.text} ${s.argument?.docString?.content ?? ""} ${JSON.stringify(s.argument?.dataTable ?? "")}`).join(" ");
  if (TEMPORAL.test(text)) return "temporal types";
  return null;
}

/** Parses every feature file below `root` into one scenario per pickle (outline rows expanded). */
export function loadScenarios(root: string, classifyScope = true): Scenario[] {
  const out: Scenario[] = [];
  for (const file of walk(root)) {
    const path = relative(root, file);
    const newId = IdGenerator.incrementing();
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const doc = parser.parse(readFileSync(file, "utf8"));
    const lines = new Map<string, number>();
    for (const child of doc.feature?.children ?? []) {
      const sc = child.scenario;
      if (sc === undefined) continue;
      lines.set(sc.id, sc.location.line);
      for (const ex of sc.examples) for (const row of ex.tableBody) lines.set(row.id, row.location.line);
    }
    for (const pickle of compile(doc, path, newId)) {
      const line = lines.get(pickle.astNodeIds.at(-1) ?? "") ?? 0;
      out.push({
        key: `${path}:${line} ${pickle.name}`,
        folder: path.split("/").slice(0, 2).join("/"),
        pickle,
        outOfScope: classifyScope ? classify(path, pickle) : null,
      });
    }
  }
  return out;
}
