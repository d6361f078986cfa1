// Linux /proc readings of a process and its children (a PROCESSES cluster's primary and its
// service processes), for the load benchmarks and the cluster's test.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat on Linux. */
const CLOCK_TICKS = 100;

/** The fields of a /proc stat line after the parenthesised command name (which may hold spaces): [0] is the state. */
function statFields(path: string): string[] {
  const stat = readFileSync(path, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Process ids whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(`/proc/${entry}/stat`)[1]) === pid) out.push(Number(entry));
    } catch {
      // the process ended while the directory was read
    }
  }
  return out;
}

/** utime + stime of a /proc stat file, in seconds. */
export function statCpuSeconds(path: string): number {
  const fields = statFields(path);
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** VmRSS of a process in MB (NaN when it has none, or has ended). */
export function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match?.[1] === undefined ? NaN : Number(match[1]) / 1024;
  } catch {
    // the process has ended: it holds no memory
    return NaN;
  }
}
