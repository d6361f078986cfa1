import type { PickleStep, PickleTable } from "@cucumber/messages";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CypherError } from "../../src/engines/cypher/errors.js";
import { executeCypher } from "../../src/engines/cypher/execute.js";
import type { CypherResult } from "../../src/engines/cypher/execute.js";
import { MemoryGraphStore } from "../../src/engines/cypher/store/memory-graph-store.js";
import type { Value } from "../../src/engines/cypher/values/value.js";
import { canonicalActual, canonicalExpected, expectedToValue } from "./canonical.js";
import { captureState, diffStates } from "./side-effects.js";
import type { GraphState } from "./side-effects.js";
import { parseTckValue } from "./tck-values.js";
import type { Scenario } from "./load-features.js";

export type Outcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

interface State {
  store: MemoryGraphStore;
  params: Record<string, Value>;
  result: CypherResult | null;
  error: unknown;
  before: GraphState | null;
}

function table(step: PickleStep): string[][] {
  const t: PickleTable | undefined = step.argument?.dataTable;
  return (t?.rows ?? []).map((r) => r.cells.map((c) => c.value));
}

function run(state: State, query: string): void {
  executeCypher(state.store, query, state.params);
}

/** Executes one scenario's steps; any mismatch or unexpected error makes it fail with a reason. */
export function runScenario(scenario: Scenario, graphsDir: string): Outcome {
  const state: State = { store: new MemoryGraphStore(), params: {}, result: null, error: null, before: null };
  try {
    for (const step of scenario.pickle.steps) {
      const outcome = runStep(state, step, graphsDir);
      if (!outcome.ok) return outcome;
    }
    if (state.error !== null) return { ok: false, reason: `unexpected error: ${describe(state.error)}` };
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: `harness error: ${describe(e)}` };
  }
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function runStep(state: State, step: PickleStep, graphsDir: string): Outcome {
  const text = step.text.trim();
  const doc = step.argument?.docString?.content ?? "";
  if (text === "an empty graph" || text === "any graph") {
    state.store = new MemoryGraphStore();
    return { ok: true };
  }
  const named = /^the (.+) graph$/.exec(text);
  if (named?.[1] !== undefined) {
    const name = named[1];
    run(state, readFileSync(join(graphsDir, name, `${name}.cypher`), "utf8"));
    return { ok: true };
  }
  if (text === "having executed:") {
    try {
      run(state, doc);
    } catch (e) {
      return { ok: false, reason: `setup query failed: ${describe(e)}` };
    }
    return { ok: true };
  }
  if (text === "parameters are:") {
    for (const [name, value] of table(step)) {
      if (name !== undefined && value !== undefined) state.params[name] = expectedToValue(parseTckValue(value));
    }
    return { ok: true };
  }
  if (text === "executing query:" || text === "executing control query:") {
    state.before = captureState(state.store);
    state.result = null;
    state.error = null;
    try {
      state.result = executeCypher(state.store, doc, state.params, { maxRows: Number.MAX_SAFE_INTEGER });
    } catch (e) {
      state.error = e;
    }
    return { ok: true };
  }
  if (text.startsWith("the result should be")) return checkResult(state, step, text);
  if (text === "no side effects" || text === "the side effects should be:") return checkSideEffects(state, text === "no side effects" ? [] : table(step));
  const err = /^an? (\w+) should be raised at (compile time|runtime|any time): (\w+|\*)$/.exec(text);
  if (err !== null) return checkError(state, err[1] ?? "", err[2] ?? "", err[3] ?? "");
  return { ok: false, reason: `unknown step: ${text}` };
}

function checkResult(state: State, step: PickleStep, text: string): Outcome {
  if (state.error !== null) return { ok: false, reason: `query failed: ${describe(state.error)}` };
  const result = state.result;
  if (result === null) return { ok: false, reason: "no result" };
  if (text === "the result should be empty") {
    return result.rows.length === 0 ? { ok: true } : { ok: false, reason: `expected no rows, got ${result.rows.length}` };
  }
  const unorderedLists = text.includes("ignoring element order for lists");
  const ordered = text.includes("in order");
  const [header = [], ...rows] = table(step);
  if ([...header].sort().join("|") !== [...result.columns].sort().join("|")) {
    return { ok: false, reason: `columns differ: expected ${header.join(", ")}, got ${result.columns.join(", ")}` };
  }
  const o = { unorderedLists };
  const expected = rows.map((r) => header.map((h, i) => `${h}=${canonicalExpected(parseTckValue(r[i] ?? "null"), o)}`).join(" | "));
  const actual = result.rows.map((r) => header.map((h) => `${h}=${canonicalActual(state.store, r[h] ?? null, o)}`).join(" | "));
  if (!ordered) {
    expected.sort();
    actual.sort();
  }
  if (expected.length !== actual.length || expected.some((e, i) => e !== actual[i])) {
    return { ok: false, reason: `rows differ:\n  expected ${JSON.stringify(expected)}\n  actual   ${JSON.stringify(actual)}` };
  }
  return { ok: true };
}

function checkSideEffects(state: State, rows: string[][]): Outcome {
  if (state.error !== null) return { ok: false, reason: `query failed: ${describe(state.error)}` };
  if (state.before === null) return { ok: false, reason: "no query executed" };
  const diff = diffStates(state.before, captureState(state.store));
  const expected: Record<string, number> = {};
  for (const [k, v] of rows) if (k !== undefined) expected[k.trim()] = Number(v);
  for (const [k, v] of Object.entries(diff)) {
    if ((expected[k] ?? 0) !== v) return { ok: false, reason: `side effects differ: ${JSON.stringify(diff)} vs ${JSON.stringify(expected)}` };
  }
  return { ok: true };
}

function checkError(state: State, type: string, phase: string, detail: string): Outcome {
  const e = state.error;
  if (e === null) return { ok: false, reason: `expected ${type} (${detail}) but the query succeeded` };
  if (!(e instanceof CypherError)) return { ok: false, reason: `expected ${type}, got non-Cypher error ${describe(e)}` };
  if (e.type !== type) return { ok: false, reason: `expected ${type}/${detail}, got ${e.message}` };
  if (phase !== "any time" && e.phase !== phase) return { ok: false, reason: `expected ${phase}, got ${e.phase}: ${e.message}` };
  // `*` in the TCK means any detail is acceptable.
  if (detail !== "*" && e.detail !== detail) return { ok: false, reason: `expected detail ${detail}, got ${e.message}` };
  state.error = null;
  return { ok: true };
}
