import cluster, { type Worker } from "node:cluster";
import type { Config } from "../platform/config.js";
import { createLogger } from "../platform/logger.js";
import { relayClusterMetrics } from "../platform/metrics/cluster-metrics.js";

/** Wait before a service process that died is started again (a crash loop starts one a second). */
const RESTART_DELAY_MS = 1_000;

/**
 * PROCESSES above 1: this primary process forks the service processes and serves nothing itself
 * (Node cluster: the processes share the port, connections are handed out in turn). Process 0
 * starts first: it migrates the store, creates the first organization and runs the job workers.
 * The others start once it listens and answer requests only (WORKERS=0); they, and any process
 * started again, listen once their search indexes are loaded. A process that dies
 * after start-up is started again in its role; one that fails to start ends the primary with its
 * exit code. SIGTERM and SIGINT are passed on, and the primary exits once every process has.
 * It also relays /metrics collections between the processes (cluster-metrics.ts).
 */
export function runPrimary(config: Config): void {
  const logger = createLogger(config);
  const roles = new Map<Worker, number>();
  let started = false;
  /** Processes that have listened (counting those started again), for the one log line saying all are up. */
  let listening = 0;
  let stopping = false;
  let exitCode = 0;

  const fork = (role: number): void => {
    // Every process but the very first starts while another serves: it listens only once its
    // search indexes are loaded, rather than holding its share of the queries for the seconds
    // that takes (a 100,000-chunk store: 20-30 s, the p99 of bench:load).
    const worker = cluster.fork({ ...(role === 0 ? {} : { WORKERS: "0" }), ...(started ? { LISTEN_WHEN_WARM: "1" } : {}) });
    roles.set(worker, role);
    // The channel to a process that just died fails (EPIPE): its exit is handled below, not here.
    worker.on("error", (err) => logger.warn({ err, pid: worker.process.pid, role }, "service process channel error"));
    worker.once("listening", () => {
      listening += 1;
      if (listening === config.processes) logger.info({ processes: config.processes }, "all service processes listening");
      if (role !== 0 || started) return;
      started = true;
      for (let i = 1; i < config.processes; i++) fork(i);
    });
  };

  cluster.on("exit", (worker, code, signal) => {
    const role = roles.get(worker) ?? 0;
    roles.delete(worker);
    if (!started && !stopping) exitCode = code === 0 || code === null ? 1 : code;
    else if (code !== 0 && code !== null) exitCode = code;
    else if (signal !== null && !stopping) exitCode = 1;
    if (stopping || !started) {
      // Shutting down, or the first process could not start (its own output says why).
      if (!stopping) stop("SIGTERM");
      if (roles.size === 0) process.exit(exitCode);
      return;
    }
    logger.error({ pid: worker.process.pid, role, code, signal }, "a service process exited; starting another in its place");
    setTimeout(() => {
      if (!stopping) fork(role);
    }, RESTART_DELAY_MS);
  });

  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    for (const worker of roles.keys()) worker.process.kill(signal);
    if (roles.size === 0) process.exit(exitCode);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  relayClusterMetrics();
  fork(0);
}
