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
