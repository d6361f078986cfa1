/**
 * One system on one data set, in its own child process, driven by the parent over IPC: index every
 * corpus (timed from the first insert until searchable), then answer slices of the questions in a
 * mode when asked. The parent asks every system in turn, slice by slice (interleave.ts), so a
 * machine that runs slower for a minute slows every system alike instead of whichever ran then.
 * Recall@k per question = the share of its evidence documents among the first k distinct documents
 * of the ranking (chunks of one document count once; for LoCoMo a document is a turn), averaged,
 * exactly as bench:retrieval computes it. Latency per question: the search call, plus our encoder's
 * measured time for that question when the system does not embed the question itself. RSS: this
 * process's, before and after indexing, and its peak.
 */
import type { DataSet, PeerSystem } from "./types.js";

export const KS = [1, 5, 10, 20] as const;

export interface ModeResult {
  readonly mode: string;
  readonly recall: number[];
  /** R@10 per question category. */
  readonly categories: Record<string, number>;
  readonly p50: number;
  readonly p95: number;
}

export interface SystemResult {
  readonly system: string;
  readonly dataset: string;
  readonly modes: ModeResult[];
  readonly indexSeconds: number;
  /** RSS after indexing minus RSS before, MB. */
  readonly indexRssMb: number;
  /** Peak RSS of the child process (sampled every 50 ms and after each phase), MB. */
  readonly peakRssMb: number;
  readonly note?: string;
  readonly error?: string;
}

/** One question's answer in one mode: its time and its recall at each of KS. */
export interface Answer {
  readonly ms: number;
  readonly recall: number[];
}

/** Parent -> child. */
export type Command = { readonly type: "ask"; readonly mode: string; readonly from: number; readonly to: number } | { readonly type: "end" };

/** Child -> parent. */
export type Report =
  | { readonly type: "ready"; readonly modes: readonly string[]; readonly indexSeconds: number; readonly indexRssMb: number }
  | { readonly type: "answers"; readonly answers: Answer[] }
  | { readonly type: "done"; readonly peakRssMb: number; readonly note?: string };

const mb = (bytes: number): number => bytes / 1024 / 1024;

/** The child's side: indexes, reports ready, then answers each command until `end`. */
export async function serveSystem(
  system: PeerSystem & { notes?: () => string },
  data: DataSet,
  send: (r: Report) => Promise<void>,
  commands: AsyncIterable<Command>,
): Promise<void> {
  // Peak RSS is sampled here: getrusage's maxRSS of a spawned child starts from its parent's.
  let peak = process.memoryUsage().rss;
  const sample = (): void => void (peak = Math.max(peak, process.memoryUsage().rss));
  const sampler = setInterval(sample, 50);
  const before = process.memoryUsage().rss;
  const started = performance.now();
  await system.index(data);
  const indexSeconds = (performance.now() - started) / 1000;
  sample();
  const indexRssMb = mb(process.memoryUsage().rss - before);
  const settled = system.settle ? await system.settle() : undefined;
  await send({ type: "ready", modes: system.modes, indexSeconds, indexRssMb });
  for await (const command of commands) {
    if (command.type === "end") break;
    const answers: Answer[] = [];
    for (const q of data.questions.slice(command.from, command.to)) {
      const t0 = performance.now();
      const docs = await system.search(command.mode, q, data.depth);
      const ms = performance.now() - t0 + (system.embedsQueries ? 0 : q.embedMs);
      const ranked = [...new Set(docs)];
      answers.push({ ms, recall: KS.map((k) => q.evidence.filter((e) => ranked.slice(0, k).includes(e)).length / q.evidence.length) });
    }
    sample();
    await send({ type: "answers", answers });
  }
  clearInterval(sampler);
  const note = [settled, system.notes?.()].filter((n) => n !== undefined).join("; ");
  await system.close();
  await send({ type: "done", peakRssMb: mb(peak), ...(note ? { note } : {}) });
}
