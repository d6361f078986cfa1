/** Prints one table per data set: rows = system and mode, columns = recall, R@10 per category, latency, indexing, memory. */
import type { SystemResult } from "./run-system.js";
import { KS } from "./run-system.js";

const cell = (v: number | undefined, digits: number, width: number): string => (v === undefined || Number.isNaN(v) ? "-" : v.toFixed(digits)).padStart(width);

export function printTable(dataset: string, categories: string[], results: SystemResult[]): void {
  const head = [
    "system / mode".padEnd(40),
    ...KS.map((k) => `R@${k}`.padStart(6)),
    ...categories.map((c) => `${c}@10`.padStart(Math.max(9, c.length + 4))),
    "p50 ms".padStart(8),
    "p95 ms".padStart(8),
    "index s".padStart(8),
    "+RSS MB".padStart(8),
    "peak MB".padStart(8),
  ];
  console.log(`\n${dataset}`);
  console.log(head.join(" "));
  for (const r of results) {
    if (r.error !== undefined) {
      console.log(`${r.system.padEnd(40)} ${r.error}`);
      continue;
    }
    for (const [n, m] of r.modes.entries()) {
      const first = n === 0;
      console.log(
        [
          `${r.system} ${m.mode}`.padEnd(40),
          ...m.recall.map((v) => cell(v, 3, 6)),
          ...categories.map((c) => cell(m.categories[c], 3, Math.max(9, c.length + 4))),
          cell(m.p50, 1, 8),
          cell(m.p95, 1, 8),
          first ? cell(r.indexSeconds, 1, 8) : "".padStart(8),
          first ? cell(r.indexRssMb, 0, 8) : "".padStart(8),
          first ? cell(r.peakRssMb, 0, 8) : "".padStart(8),
        ].join(" "),
      );
    }
    if (r.note !== undefined) console.log(`  (${r.system}: ${r.note})`);
  }
}
