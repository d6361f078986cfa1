/**
 * The knowledge part of bench:retrieval: the HotpotQA development set (bench/hotpot.ts) through the
 * public API, each passage one knowledge item (`app_knowledge`, id and title the passage's title,
 * text its sentences), every question asked with 10 results in each mode, beside a plain BM25 over
 * the same whole passages (bench/plain-bm25.ts) in the same run. Prints recall@2/5/10 of the gold
 * passages, MRR of the first gold passage, and recall@2 per question type.
 */
import { percentile } from "./bench-utils.js";
import { loadHotpot, type HotpotQuestion } from "./hotpot.js";
import { PlainBm25 } from "./plain-bm25.js";

type Post = (url: string, payload: unknown) => Promise<Record<string, unknown>>;
const KS = [2, 5, 10] as const;
const BATCH = 100;

export interface HotpotMethod {
  readonly name: string;
  readonly body: Record<string, unknown>;
}

interface Tally {
  readonly recall: number[];
  mrr: number;
  readonly byType: Map<string, { n: number; r2: number }>;
  readonly times: number[];
}

function tally(): Tally {
  return { recall: KS.map(() => 0), mrr: 0, byType: new Map(), times: [] };
}

function count(t: Tally, q: HotpotQuestion, ranked: readonly string[]): void {
  KS.forEach((k, j) => (t.recall[j]! += q.gold.filter((g) => ranked.slice(0, k).includes(g)).length / q.gold.length));
  const first = ranked.findIndex((id) => q.gold.includes(id));
  t.mrr += first >= 0 ? 1 / (first + 1) : 0;
  const type = t.byType.get(q.type) ?? { n: 0, r2: 0 };
  type.n++;
  type.r2 += q.gold.filter((g) => ranked.slice(0, 2).includes(g)).length / q.gold.length;
  t.byType.set(q.type, type);
}

function row(name: string, t: Tally, n: number): string {
  const types = [...t.byType]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k} ${(v.r2 / v.n).toFixed(3)}`)
    .join(" ");
  const sorted = [...t.times].sort((a, b) => a - b);
  const latency =
    sorted.length > 0
      ? `${percentile(sorted, 0.5).toFixed(1).padStart(6)}  ${percentile(sorted, 0.95).toFixed(1).padStart(6)}`
      : `${"-".padStart(6)}  ${"-".padStart(6)}`;
  return `${name.padEnd(26)} ${t.recall.map((r) => (r / n).toFixed(3).padStart(6)).join(" ")} ${(t.mrr / n).toFixed(3).padStart(6)}   ${latency}   R@2 by type: ${types}`;
}

/** Ingests the passages into `database` (already provisioned) and waits until all are indexed. */
export async function ingestHotpot(post: Post, database: string, indexed: () => Promise<number>): Promise<number> {
  const { passages } = loadHotpot();
  for (let i = 0; i < passages.length; i += BATCH) {
    const app_knowledge = passages.slice(i, i + BATCH).map((p) => ({ id: p.id, title: p.title, content: { text: p.text } }));
    await post("/context/ingest", { type: "knowledge", database, app_knowledge });
  }
  while ((await indexed()) < passages.length) await new Promise((r) => setTimeout(r, 200));
  return passages.length;
}

export async function runHotpot(post: Post, database: string, methods: readonly HotpotMethod[]): Promise<void> {
  const { passages, questions } = loadHotpot();
  const n = questions.length;
  console.log(`hotpotqa-train-100: ${passages.length} passages, ${n} questions, 10 results asked; recall of gold passages, MRR of the first`);
  console.log(`${"method".padEnd(26)} ${KS.map((k) => `R@${k}`.padStart(6)).join(" ")}    MRR   p50 ms  p95 ms`);
  const bm25 = new PlainBm25(passages.map((p) => ({ id: p.id, text: `${p.title} ${p.text}` })));
  const plain = tally();
  for (const q of questions) count(plain, q, bm25.search(q.question, 10));
  console.log(row("plain BM25 (reference)", plain, n));
  for (const m of methods) {
    const t = tally();
    for (const q of questions) {
      const t0 = performance.now();
      const res = await post("/query", { database, query: q.question, max_results: 10, graph_context: false, ...m.body });
      t.times.push(performance.now() - t0);
      const chunks = (res.data as { chunks: Array<{ source_id?: string; id: string }> }).chunks;
      count(t, q, [...new Set(chunks.map((c) => c.source_id ?? c.id))]);
    }
    console.log(row(m.name, t, n));
  }
}
