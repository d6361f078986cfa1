import { Session } from "node:inspector/promises";
import { writeFile } from "node:fs/promises";
/** Shared pieces of the benchmark scripts: options, a deterministic generator, percentiles. */

export function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

/** Deterministic xorshift so every run measures the same graph. */
export function seededRandom(seed = 0x2545f491): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** Times `runs` calls of `once` (which returns its row count) and prints p50/p95. */
export async function measure(name: string, runs: number, once: () => number | Promise<number>): Promise<void> {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    rows += await once();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(34)} p50 ${percentile(times, 0.5).toFixed(3).padStart(9)} ms   p95 ${percentile(times, 0.95).toFixed(3).padStart(9)} ms   (${runs} runs, ${rows} rows)`,
  );
}

export interface QueryShape {
  readonly name: string;
  readonly runs: number;
  readonly query: string;
  readonly params: () => Record<string, unknown>;
}

/** The query shapes both Cypher benchmarks measure on the generated social graph. */
export function socialGraphShapes(nodes: number, runs: number, pick: (n: number) => number): QueryShape[] {
  return [
    { name: "indexed lookup", runs: runs * 5, query: "MATCH (n:Person {id: $id}) RETURN n.name AS name", params: () => ({ id: pick(nodes) }) },
    {
      name: "2-hop count from degree-100 node",
      runs,
      query: "MATCH (a:Person {id: 0})-[:KNOWS]->()-[:KNOWS]->(c) RETURN count(c) AS c",
      params: () => ({}),
    },
    {
      name: "filtered var-length (1..3 hops)",
      runs,
      query: "MATCH (a:Person {id: $id})-[:KNOWS*1..3]->(b) WHERE b.age > 70 RETURN count(b) AS c",
      params: () => ({ id: 1 + pick(nodes - 1) }),
    },
    {
      name: "shortestPath random pairs (<= 6)",
      runs: Math.max(10, Math.floor(runs / 10)),
      query: "MATCH (a:Person {id: $a}), (b:Person {id: $b}) RETURN length(shortestPath((a)-[:KNOWS*..6]->(b))) AS len",
      params: () => ({ a: pick(nodes), b: pick(nodes) }),
    },
  ];
}

/** Measures every shape; `run` executes one query and returns its row count. */
export async function measureShapes(
  shapes: readonly QueryShape[],
  run: (query: string, params: Record<string, unknown>) => number | Promise<number>,
): Promise<void> {
  for (const s of shapes) await measure(s.name, s.runs, () => run(s.query, s.params()));
}

/**
 * BENCH_CPU_PROFILE=<file>: a CPU profile of this process (node:inspector, sampled every 200 µs)
 * from now until the returned function is called, written there for DevTools; without it, nothing.
 */
export async function cpuProfileWindow(): Promise<() => Promise<void>> {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  return async () => {
    const { profile } = await session.post("Profiler.stop");
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}
