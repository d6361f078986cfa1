/**
 * One system on one data set, in its own child process: index every corpus (timed from the first
 * insert until searchable), then every question in every mode. Recall@k per question = the share of
 * its evidence documents among the first k distinct documents of the ranking (chunks of one document
 * count once; for LoCoMo a document is a turn), averaged, exactly as bench:retrieval computes it.
 * Latency per question: the search call, plus our encoder's measured time for that question when
 * the system does not embed the question itself. RSS: this process's, before and after indexing, and its peak.
 */
import { percentile } from "../bench-utils.js";
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

const mb = (bytes: number): number => bytes / 1024 / 1024;

/** Warm-up questions per mode, asked before the measured ones and not counted (for every system alike). */
const WARM_UP = 3;

export async function runSystem(name: string, system: PeerSystem & { notes?: () => string }, data: DataSet): Promise<SystemResult> {
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
  const modes: ModeResult[] = [];
  for (const mode of system.modes) {
    for (const q of data.questions.slice(0, WARM_UP)) await system.search(mode, q, data.depth);
    const sums = KS.map(() => 0);
    const cats = new Map<string, { n: number; r10: number }>();
    const times: number[] = [];
    for (const q of data.questions) {
      const t0 = performance.now();
      const docs = await system.search(mode, q, data.depth);
      times.push(performance.now() - t0 + (system.embedsQueries ? 0 : q.embedMs));
      const ranked = [...new Set(docs)];
      const recall = (k: number): number => q.evidence.filter((e) => ranked.slice(0, k).includes(e)).length / q.evidence.length;
      KS.forEach((k, j) => (sums[j]! += recall(k)));
      const cat = cats.get(q.category) ?? { n: 0, r10: 0 };
      cat.n++;
      cat.r10 += recall(10);
      cats.set(q.category, cat);
    }
    sample();
    times.sort((a, b) => a - b);
    modes.push({
      mode,
      recall: sums.map((s) => s / data.questions.length),
      categories: Object.fromEntries([...cats].map(([c, v]) => [c, v.r10 / v.n])),
      p50: percentile(times, 0.5),
      p95: percentile(times, 0.95),
    });
  }
  const note = [settled, system.notes?.()].filter((n) => n !== undefined).join("; ");
  clearInterval(sampler);
  await system.close();
  return {
    system: name,
    dataset: data.name,
    modes,
    indexSeconds,
    indexRssMb,
    peakRssMb: mb(peak),
    ...(note ? { note } : {}),
  };
}
