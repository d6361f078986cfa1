/**
 * The parent's side of bench:peers: every system of a data set in its own child process, indexed
 * one after the other (so indexing never competes), then asked the questions slice by slice in
 * turn: slice 1 of every system and mode, then slice 2, and so on, the systems' order rotating.
 * Each system's latency is thereby sampled across the whole run, and a slower minute of the machine
 * (this 2-core VM's speed drifts by up to 2x over minutes) weighs on every system alike.
 */
import type { ChildProcess } from "node:child_process";
import { percentile } from "../bench-utils.js";
import { KS, type Answer, type Command, type ModeResult, type Report, type SystemResult } from "./run-system.js";
import type { DataSet } from "./types.js";

/** Slices the questions are cut into; every system answers slice i before any answers slice i + 1. */
const SLICES = 10;
/** Warm-up questions per mode, asked before the measured ones and not counted (for every system alike). */
const WARM_UP = 3;
/**
 * Latency samples wanted per mode: a set with fewer questions is asked that many times over
 * (every pass interleaved as above), so a p95 is not the third-slowest of 50 answers. Recall
 * comes from the first pass (later passes return the same lists).
 */
const MIN_LATENCY_SAMPLES = 500;

/** How many times a set of `questions` questions is asked (latency comes from every pass). */
export const latencyPasses = (questions: number): number => Math.max(1, Math.ceil(MIN_LATENCY_SAMPLES / questions));

type Ready = Extract<Report, { type: "ready" }>;
type Done = Extract<Report, { type: "done" }>;

/** A system's child process, answering commands one at a time. */
class Child {
  private waiting: { resolve: (r: Report) => void; reject: (e: Error) => void } | null = null;
  private exited: string | null = null;
  private err = "";

  constructor(
    readonly system: string,
    private readonly proc: ChildProcess,
  ) {
    proc.stderr?.on("data", (b: Buffer) => (this.err = (this.err + b.toString()).slice(-4000)));
    proc.stdout?.resume();
    proc.on("message", (report: Report) => {
      const w = this.waiting;
      this.waiting = null;
      w?.resolve(report);
    });
    proc.on("close", (code) => {
      this.exited = `failed (exit ${code}): ${this.err.trim().split("\n").slice(-3).join(" | ").slice(0, 400)}`;
      const w = this.waiting;
      this.waiting = null;
      w?.reject(new Error(this.exited));
    });
  }

  /** The next report; with a command, after sending it. */
  next(command?: Command): Promise<Report> {
    if (this.exited !== null) return Promise.reject(new Error(this.exited));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      if (command) this.proc.send(command);
    });
  }

  async ask(mode: string, from: number, to: number): Promise<Answer[]> {
    const r = await this.next({ type: "ask", mode, from, to });
    if (r.type !== "answers") throw new Error(`${this.system}: expected answers, got ${r.type}`);
    return r.answers;
  }
}

interface Live {
  readonly child: Child;
  readonly ready: Ready;
  /** Answers per mode, by question index (the first pass). */
  readonly answers: Map<string, Answer[]>;
  /** Every pass's answer times per mode. */
  readonly times: Map<string, number[]>;
  error?: string;
}

const failed = (system: string, dataset: string, error: string): SystemResult => ({
  system,
  dataset,
  modes: [],
  indexSeconds: NaN,
  indexRssMb: NaN,
  peakRssMb: NaN,
  error,
});

/** Runs every system on `data`; `spawnChild` starts one system's child process (with an IPC channel). */
export async function runInterleaved(systems: readonly string[], data: DataSet, spawnChild: (system: string) => ChildProcess): Promise<SystemResult[]> {
  const results = new Map<string, SystemResult>();
  const live: Live[] = [];
  for (const system of systems) {
    const child = new Child(system, spawnChild(system));
    try {
      const ready = await child.next();
      if (ready.type !== "ready") throw new Error(`expected ready, got ${ready.type}`);
      live.push({ child, ready, answers: new Map(ready.modes.map((m) => [m, []])), times: new Map(ready.modes.map((m) => [m, []])) });
    } catch (err) {
      results.set(system, failed(system, data.name, (err as Error).message));
    }
  }
  const ask = async (l: Live, mode: string, from: number, to: number): Promise<Answer[]> => {
    if (l.error !== undefined) return [];
    try {
      return await l.child.ask(mode, from, to);
    } catch (err) {
      l.error = (err as Error).message;
      return [];
    }
  };
  for (const l of live) for (const mode of l.ready.modes) await ask(l, mode, 0, WARM_UP);
  const n = data.questions.length;
  const passes = latencyPasses(n);
  for (let pass = 0; pass < passes; pass++) {
    for (let s = 0; s < SLICES; s++) {
      const from = Math.floor((s * n) / SLICES);
      const to = Math.floor(((s + 1) * n) / SLICES);
      for (let i = 0; i < live.length; i++) {
        const l = live[(i + s + pass) % live.length]!;
        for (const mode of l.ready.modes) {
          const answers = await ask(l, mode, from, to);
          if (pass === 0) l.answers.get(mode)!.push(...answers);
          l.times.get(mode)!.push(...answers.map((a) => a.ms));
        }
      }
    }
  }
  for (const l of live) {
    let done: Done | null = null;
    try {
      const r = await l.child.next({ type: "end" });
      if (r.type === "done") done = r;
    } catch (err) {
      l.error ??= (err as Error).message;
    }
    if (l.error !== undefined || done === null) {
      results.set(l.child.system, failed(l.child.system, data.name, l.error ?? "no final report"));
      continue;
    }
    results.set(l.child.system, {
      system: l.child.system,
      dataset: data.name,
      modes: [...l.answers].map(([mode, answers]) => summarize(mode, answers, l.times.get(mode)!, data)),
      indexSeconds: l.ready.indexSeconds,
      indexRssMb: l.ready.indexRssMb,
      peakRssMb: done.peakRssMb,
      ...(done.note ? { note: done.note } : {}),
    });
  }
  return systems.map((s) => results.get(s)!);
}

function summarize(mode: string, answers: readonly Answer[], allTimes: readonly number[], data: DataSet): ModeResult {
  const cats = new Map<string, { n: number; r10: number }>();
  answers.forEach((a, i) => {
    const category = data.questions[i]!.category;
    const cat = cats.get(category) ?? { n: 0, r10: 0 };
    cat.n++;
    cat.r10 += a.recall[KS.indexOf(10)]!;
    cats.set(category, cat);
  });
  const times = [...allTimes].sort((a, b) => a - b);
  return {
    mode,
    recall: KS.map((_, j) => answers.reduce((sum, a) => sum + a.recall[j]!, 0) / answers.length),
    categories: Object.fromEntries([...cats].map(([c, v]) => [c, v.r10 / v.n])),
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
  };
}
