// Load and soak: `npm run bench:load` (embedded) or with DATABASE_URL (PostgreSQL).
// Opens the 100,000-chunk store of bench/bench-store.ts (BENCH_DATA_DIR reuses it), starts the
// service as its own process on 127.0.0.1, and drives an open-loop fixed schedule of LOAD_RPS
// requests per second (default 100) of the mix in bench/load-mix.ts: every request starts at its
// scheduled time whatever earlier ones are doing, and its latency counts from that time, so a slow
// service cannot slow the load down and hide its own queueing (no coordinated omission).
// Phase 1: LOAD_SECONDS (default 60). Phase 2, the soak: SOAK_SECONDS (default 600) at the same rate.
// Prints per kind count, errors (non-2xx or network, by code), p50/p95/p99/max; the ingested
// items' time to searchable; the service's resident memory (VmRSS) at 1 minute and every minute
// of the soak, and its CPU per request; the machine. It stops by itself. LOAD_SETTLE_MAX_S (default 300)
// bounds the wait for the start-up work to settle (a profiled service never looks idle).
import { randomBytes } from "node:crypto";
import { cpus, loadavg, totalmem } from "node:os";
import { ApiError, createApiClient } from "../src/client/api-client.js";
import { MIX, MixState, send } from "./load-mix.js";
import { createHttpFetch } from "./http-fetch.js";
import { startLoadTarget, type LoadServer } from "./load-server.js";
import { PhaseStats } from "./load-stats.js";
import { IndexingTracker } from "./load-indexing.js";

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RPS = Number(process.env.LOAD_RPS ?? 100);
const CHUNKS = 100_000;
/** How long requests still running at a phase's end may take before they count as TIMEOUT errors. */
const DRAIN_MS = 60_000;
/**
 * Requests in flight at most (LOAD_MAX_IN_FLIGHT, default 10 s of traffic): past it the service is
 * failing anyway, and each waiting request holds a socket; a request whose time comes then is not
 * sent and counts as an IN_FLIGHT_CAP error.
 */
const MAX_IN_FLIGHT = Number(process.env.LOAD_MAX_IN_FLIGHT ?? RPS * 10);
/** LOAD_KINDS (comma-separated kinds of the mix) sends only those, in the mix's order: one kind's cost alone. */
const KINDS = process.env.LOAD_KINDS?.split(",").map((k) => k.trim());
const RUN_MIX = KINDS === undefined ? MIX : MIX.filter((k) => KINDS.includes(k));
if (RUN_MIX.length === 0) throw new Error(`LOAD_KINDS names none of the mix's kinds: ${[...new Set(MIX)].join(", ")}`);

const { text, store, server } = await startLoadTarget(CHUNKS);
// LOAD_FETCH=global sends through the global fetch (undici) instead of the leaner node:http one.
const transport = process.env.LOAD_FETCH === "global" ? fetch : createHttpFetch();
// undici's "fetch failed" carries the reason (ECONNRESET, a connect timeout) in its cause: keep it in the message.
const fetchWithCause = (request: Request): Promise<Response> =>
  transport(request).catch((err: unknown) => {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : null;
    throw cause === null ? err : new Error(`${cause.name}: ${"code" in cause ? String(cause.code) : cause.message}`);
  });
const api = createApiClient({ baseUrl: server.baseUrl, apiKey: store.key, fetch: fetchWithCause });
const state = new MixState(api, text, CHUNKS / 10, CHUNKS / 10, randomBytes(3).toString("hex"));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const codeOf = (err: unknown): string => {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.name : "UNKNOWN";
  // A network failure's cause (ECONNRESET, UND_ERR_CONNECT_TIMEOUT, ...) is in its message.
  return err.status === 0 ? `NETWORK_ERROR (${err.message.replace(/^could not reach [^ ]+ /, "").slice(0, 80)})` : `${err.status} ${err.code}`;
};

console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(1)} GB; node ${process.version}; backend ${store.backend}; ` +
    `${CHUNKS} knowledge + ${CHUNKS / 10} memory chunks (${store.reused ? "reused" : "written now"}); load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
);
console.log(`mix per ${RUN_MIX.length} requests: ${RUN_MIX.join(", ")}; ${RPS} requests/s; phase 1 ${LOAD_SECONDS} s, soak ${SOAK_SECONDS} s`);

// Warm-up, not measured: the indexes load on the first queries, the embedder on the first embedding.
const WARM_REQUESTS = Number(process.env.LOAD_WARM_REQUESTS ?? 40);
const warmStarted = performance.now();
for (let i = 0; i < WARM_REQUESTS; i++) {
  const kind = MIX[i % MIX.length] ?? "query fast";
  await send(kind, state).catch((err: unknown) => console.log(`warm-up ${kind}: ${codeOf(err)} ${err instanceof Error ? err.message : ""}`));
}
// Then the mix at a low rate (LOAD_WARM_RPS, default 20/s, for LOAD_WARM_SECONDS, default 10), not
// counted: the sequential requests above reuse one connection, so with PROCESSES > 1 they reach one
// process, and the others would meet their first requests (statements prepared, code compiled,
// caches filled) at the full rate. A service that has run for a while is what the phase measures.
const WARM_SECONDS = Number(process.env.LOAD_WARM_SECONDS ?? 10);
if (WARM_SECONDS > 0) await runPhase("warm-up at a low rate", WARM_SECONDS, server, Number(process.env.LOAD_WARM_RPS ?? 20), true);
// The service loads the search indexes of the stored scopes in the background at start (110k
// chunks' postings: tens of seconds of its CPU on a busy machine); the load starts once it is quiet.
const settleDeadline = performance.now() + Number(process.env.LOAD_SETTLE_MAX_S ?? 300) * 1000;
for (let before = server.cpuSeconds(); performance.now() < settleDeadline;) {
  await sleep(2_000);
  const used = server.cpuSeconds() - before;
  before += used;
  if (used < 0.4) break;
}
console.log(
  `warm-up: ${WARM_REQUESTS} sequential requests, ${WARM_SECONDS} s at a low rate, then the service's start-up work settled, in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s; service RSS ${server.rssMb().toFixed(0)} MB`,
);

const tracker = new IndexingTracker(state);
const rss: Array<{ at: number; mb: number }> = [];
const loadStarted = performance.now();
const rssTimer = setInterval(() => {
  // A failed read (the service gone) shows as NaN in the table rather than ending the bench.
  const mb = (() => {
    try {
      return server.rssMb();
    } catch (err) {
      console.log(`reading the service's RSS failed: ${String(err)}`);
      return NaN;
    }
  })();
  rss.push({ at: (performance.now() - loadStarted) / 1000, mb });
}, 60_000);
const poller = setInterval(() => void tracker.poll(), 2_000);

const phase1 = await runPhase("phase 1 (load)", LOAD_SECONDS, server);
const soak = SOAK_SECONDS > 0 ? await runPhase("phase 2 (soak)", SOAK_SECONDS, server) : null;
clearInterval(rssTimer);
// The items ingested last get their indexing time to finish.
const indexDeadline = Date.now() + DRAIN_MS;
while (state.pending.size > 0 && Date.now() < indexDeadline) {
  await tracker.poll();
  await sleep(1_000);
}
clearInterval(poller);
tracker.print();

console.log("\nservice resident memory (VmRSS, MB):");
for (const s of rss) console.log(`  ${(s.at / 60).toFixed(0).padStart(3)} min  ${s.mb.toFixed(0)}`);
const first = rss.find((s) => s.at >= LOAD_SECONDS - 1);
const last = rss.at(-1);
if (first !== undefined && last !== undefined && last !== first)
  console.log(`RSS at ${(last.at / 60).toFixed(0)} min / at ${(first.at / 60).toFixed(0)} min: ${(last.mb / first.mb).toFixed(3)} (target within 10%)`);

const queryP99 = Math.max(...[phase1, soak].flatMap((p) => (p ? [percentileOf(p.latencies("query"), 0.99)] : [])));
const errors = phase1.errorCount() + (soak?.errorCount() ?? 0) + tracker.errored;
console.log(`\ntargets: errors ${errors} (target 0); query p99 ${queryP99.toFixed(1)} ms (target < 300 ms on the embedded backend)`);
console.log(
  `load average at end ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
await server.stop();
await store.db.drop();

function percentileOf(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

/** One phase of the open-loop schedule at `rps` requests/s: request i starts at start + i / rps. */
async function runPhase(name: string, seconds: number, service: LoadServer, rps = RPS, quiet = false): Promise<PhaseStats> {
  const stats = new PhaseStats(name);
  const total = Math.round(seconds * rps);
  const interval = 1000 / rps;
  const inFlight = new Set<Promise<void>>();
  const cpuBefore = service.cpuSeconds();
  const threadsBefore = new Map(service.mainThreads().map((t) => [t.pid, t.cpuSeconds]));
  // This process's own CPU: it shares the machine's cores with the service.
  const ownBefore = process.cpuUsage();
  // The service's CPU in each 10-second window: whether a slow window is a busier one.
  const cpuWindows: number[] = [];
  let cpuMark = cpuBefore;
  const cpuTimer = setInterval(() => {
    const now = service.cpuSeconds();
    cpuWindows.push(now - cpuMark);
    cpuMark = now;
  }, 10_000);
  const start = performance.now();
  if (!quiet) console.log(`${name} starts at ${new Date().toISOString()}`);
  let next = 0;
  while (next < total) {
    const now = performance.now();
    for (; next < total && start + next * interval <= now; next++) {
      const scheduled = start + next * interval;
      const kind = RUN_MIX[next % RUN_MIX.length] ?? "query fast";
      stats.startLags.push(now - scheduled);
      if (inFlight.size >= MAX_IN_FLIGHT) {
        stats.record(kind, NaN, "IN_FLIGHT_CAP");
        continue;
      }
      const request: Promise<void> = send(kind, state).then(
        () => stats.record(kind, performance.now() - scheduled, null, (scheduled - start) / 1000),
        (err: unknown) => stats.record(kind, performance.now() - scheduled, codeOf(err), (scheduled - start) / 1000),
      );
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await sleep(Math.max(0, start + next * interval - performance.now()));
  }
  const drained = await Promise.race([Promise.all(inFlight).then(() => true), sleep(DRAIN_MS).then(() => false)]);
  if (!drained) for (let i = 0; i < inFlight.size; i++) stats.record("unanswered", DRAIN_MS, "TIMEOUT");
  stats.closed = true;
  clearInterval(cpuTimer);
  const cpu = service.cpuSeconds() - cpuBefore;
  const own = process.cpuUsage(ownBefore);
  // Over the phase and its drain: work a phase leaves queued is done (and counted) while it drains.
  const wall = (performance.now() - start) / 1000;
  if (quiet) {
    console.log(
      `${name}: ${total} requests in ${seconds} s (${rps}/s), ${stats.errorCount()} errors, query p99 ${percentileOf(stats.latencies("query"), 0.99).toFixed(1)} ms (not counted)`,
    );
    return stats;
  }
  stats.print(seconds);
  console.log(
    `service CPU: ${cpu.toFixed(1)} s in ${wall.toFixed(0)} s (phase and drain; ${((cpu / wall) * 100).toFixed(0)}% of one core), ${((cpu * 1000) / total).toFixed(1)} ms per request sent`,
  );
  console.log(`service CPU by 10 s window (% of one core): ${cpuWindows.map((c) => ((c / 10) * 100).toFixed(0)).join(", ")}`);
  // Whether one process's request thread is the bottleneck (with PROCESSES > 1 the first also runs the jobs).
  const threads = service.mainThreads().map((t) => `${t.pid} ${(((t.cpuSeconds - (threadsBefore.get(t.pid) ?? t.cpuSeconds)) / wall) * 100).toFixed(0)}%`);
  console.log(`main thread CPU by service process (% of one core): ${threads.join(", ")}`);
  console.log(`load generator CPU (this process): ${(((own.user + own.system) / 1e6 / wall) * 100).toFixed(0)}% of one core`);
  return stats;
}
