// What bench:load records per request kind and how it prints it.
import { percentile } from "./bench-utils.js";

/** LOAD_WINDOW_S (default 10) narrows the windows (1: where in the first seconds a tail starts). */
const WINDOW_S = Number(process.env.LOAD_WINDOW_S ?? 10);

interface KindStats {
  count: number;
  latencies: number[];
  errors: Map<string, number>;
}

/** Latencies (from each request's scheduled start) and error codes, per kind, of one phase. */
export class PhaseStats {
  private readonly kinds = new Map<string, KindStats>();
  /** How late the client started requests behind their schedule (its own lag, reported to show it kept up). */
  readonly startLags: number[] = [];

  constructor(readonly name: string) {}

  /** Query latencies by the 10-second window of their scheduled start (where in the phase the tail is). */
  private readonly queryWindows: number[][] = [];

  /** Set once the phase is reported: a request that answers later was already counted as TIMEOUT. */
  closed = false;

  record(kind: string, latencyMs: number, errorCode: string | null, scheduledAtS = 0): void {
    if (this.closed) return;
    if (kind.startsWith("query") && !Number.isNaN(latencyMs)) {
      const w = Math.floor(scheduledAtS / WINDOW_S);
      while (this.queryWindows.length <= w) this.queryWindows.push([]);
      this.queryWindows[w]?.push(latencyMs);
    }
    let stats = this.kinds.get(kind);
    if (stats === undefined) {
      stats = { count: 0, latencies: [], errors: new Map() };
      this.kinds.set(kind, stats);
    }
    // Requests never sent (IN_FLIGHT_CAP) count as errors and have no latency.
    if (!Number.isNaN(latencyMs)) stats.latencies.push(latencyMs);
    stats.count += 1;
    if (errorCode !== null) stats.errors.set(errorCode, (stats.errors.get(errorCode) ?? 0) + 1);
  }

  errorCount(): number {
    let n = 0;
    for (const s of this.kinds.values()) for (const c of s.errors.values()) n += c;
    return n;
  }

  /** The latencies of the kinds whose name starts with `prefix`, sorted. */
  latencies(prefix: string): number[] {
    return [...this.kinds.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .flatMap(([, s]) => s.latencies)
      .sort((a, b) => a - b);
  }

  print(seconds: number): void {
    const rows = [...this.kinds.entries()].sort(([a], [b]) => a.localeCompare(b));
    const all = rows.reduce((n, [, s]) => n + s.count, 0);
    console.log(`\n${this.name}: ${all} requests in ${seconds} s (${(all / seconds).toFixed(1)}/s), ${this.errorCount()} errors`);
    console.log(
      `${"kind".padEnd(16)} ${"count".padStart(6)} ${"errors".padStart(6)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)} ${"max".padStart(8)}  (ms)`,
    );
    const line = (name: string, count: number, latencies: number[], errors: Map<string, number>): void => {
      const sorted = [...latencies].sort((a, b) => a - b);
      const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
      const codes = errorCount > 0 ? `  ${[...errors.entries()].map(([c, n]) => `${c} x${n}`).join(", ")}` : "";
      const ms = (p: number): string => percentile(sorted, p).toFixed(1).padStart(8);
      console.log(
        `${name.padEnd(16)} ${String(count).padStart(6)} ${String(errorCount).padStart(6)} ${ms(0.5)} ${ms(0.95)} ${ms(0.99)} ${(sorted.at(-1) ?? NaN).toFixed(1).padStart(8)}${codes}`,
      );
    };
    for (const [kind, s] of rows) line(kind, s.count, s.latencies, s.errors);
    const queryErrors = new Map<string, number>();
    for (const [kind, s] of rows) if (kind.startsWith("query")) for (const [c, n] of s.errors) queryErrors.set(c, (queryErrors.get(c) ?? 0) + n);
    const queryCount = rows.reduce((n, [kind, s]) => n + (kind.startsWith("query") ? s.count : 0), 0);
    line("query (all)", queryCount, this.latencies("query"), queryErrors);
    const windows = this.queryWindows.map((w, i) => {
      const sorted = [...w].sort((a, b) => a - b);
      return `${i * WINDOW_S}-${(i + 1) * WINDOW_S}s ${percentile(sorted, 0.5).toFixed(0)}/${percentile(sorted, 0.99).toFixed(0)}`;
    });
    console.log(`query p50/p99 (ms) by ${WINDOW_S} s window of the phase: ${windows.join(", ")}`);
    const lags = [...this.startLags].sort((a, b) => a - b);
    console.log(`client start lag behind schedule: p99 ${percentile(lags, 0.99).toFixed(1)} ms, max ${(lags.at(-1) ?? 0).toFixed(1)} ms`);
  }
}
