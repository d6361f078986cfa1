// The cost of each kind of bench:load's mix alone: `npm run bench:load-kinds`. Same store and
// service as bench:load; for each kind, LOAD_KINDS_REQUESTS (default 200) requests one at a
// time, then a wait until the service's background work (indexing, graph building) has settled,
// so that work counts against the kind that caused it. Prints the service's CPU per request and
// the latency p50/p95 of a request alone: where the CPU of bench:load goes.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { createApiClient } from "../src/client/api-client.js";
import { percentile } from "./bench-utils.js";
import { MIX, MixState, send, type Kind } from "./load-mix.js";
import { startLoadTarget, type LoadServer } from "./load-server.js";

const CHUNKS = 100_000;
const REQUESTS = Number(process.env.LOAD_KINDS_REQUESTS ?? 200);

const { text, store, server } = await startLoadTarget(CHUNKS);
const api = createApiClient({ baseUrl: server.baseUrl, apiKey: store.key });
const state = new MixState(api, text, CHUNKS / 10, CHUNKS / 10, randomBytes(3).toString("hex"));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until the service uses under 5% of a core for 2 s (at most 120 s); returns its idle CPU per second. */
async function settle(service: LoadServer): Promise<number> {
  let used = Infinity;
  for (let before = service.cpuSeconds(), deadline = performance.now() + 120_000; performance.now() < deadline;) {
    await sleep(2_000);
    used = service.cpuSeconds() - before;
    before += used;
    if (used < 0.1) break;
  }
  return used / 2;
}

console.log(`backend ${store.backend}; ${CHUNKS} knowledge chunks; ${REQUESTS} sequential requests per kind; load average ${loadavg()[0]?.toFixed(2)}`);
for (const kind of MIX.slice(0, 10)) await send(kind, state).catch(() => undefined);
console.log(`idle before: ${(await settle(server)).toFixed(3)} CPU s/s`);
console.log("kind               CPU ms/request   main thread   p50 ms   p95 ms   (CPU counted until the service settled)");
/** LOAD_KINDS (comma-separated) measures only those kinds. */
const only = process.env.LOAD_KINDS?.split(",").map((k) => k.trim());
for (const kind of [...new Set<Kind>(MIX)].filter((k) => only === undefined || only.includes(k))) {
  const latencies: number[] = [];
  const before = server.cpuSeconds();
  const mainBefore = server.mainThreadCpuSeconds();
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await send(kind, state);
    latencies.push(performance.now() - t0);
  }
  await settle(server);
  const cpu = server.cpuSeconds() - before;
  const main = server.mainThreadCpuSeconds() - mainBefore;
  latencies.sort((a, b) => a - b);
  console.log(
    `${kind.padEnd(18)} ${((cpu * 1000) / REQUESTS).toFixed(1).padStart(14)} ${((main * 1000) / REQUESTS).toFixed(1).padStart(13)} ${percentile(latencies, 0.5).toFixed(1).padStart(8)} ${percentile(latencies, 0.95).toFixed(1).padStart(8)}`,
  );
}
await server.stop();
await store.db.drop();
