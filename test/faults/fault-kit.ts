import type { TestContext } from "node:test";
import { startServerProcess, type ServerProcess } from "../helpers/server-process.js";
import type { TestDb } from "../helpers/test-db.js";

/** A small seeded generator (mulberry32): the same seed replays the same kill points and workload. */
export interface Rng {
  readonly seed: number;
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** FAULT_SEED or a fresh random seed, printed first so that a failing run can be replayed. */
export function seededRng(scenario: string): Rng {
  const raw = process.env.FAULT_SEED?.trim();
  const seed = raw ? Number(raw) >>> 0 : Math.floor(Math.random() * 2 ** 32);
  if (raw && !/^\d+$/.test(raw)) throw new Error(`FAULT_SEED must be a non-negative integer, got '${raw}'`);
  console.log(`[fault] ${scenario}: seed ${seed} (replay with FAULT_SEED=${seed})`);
  const next = mulberry32(seed);
  return { seed, next, int: (min, max) => min + Math.floor(next() * (max - min + 1)) };
}

/** FAULT_ROUNDS: how many times a scenario kills its processes (default 2). */
export function faultRounds(fallback = 2): number {
  const raw = process.env.FAULT_ROUNDS?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new Error(`FAULT_ROUNDS must be an integer in 1..100, got '${raw}'`);
  return n;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Job leases short enough that killed work comes back within the suite's time budget. */
export const FAST_RECOVERY: Readonly<Record<string, string>> = { JOB_LEASE_MS: "2000", JOB_POLL_MS: "50", LOG_LEVEL: "error" };

interface Node {
  readonly role: "api" | "worker" | "both";
  server: ServerProcess;
}

/**
 * The service as real processes on one store. SQLite: one process serving the API and running
 * jobs (the embedded store has one writer process). PostgreSQL: two API-only processes
 * (WORKERS=0) that take the traffic and two worker processes.
 */
export class Cluster {
  private readonly nodes: Node[] = [];
  private turn = 0;
  kills = 0;

  private constructor(
    private readonly t: TestContext,
    private readonly db: TestDb,
    private readonly env: Record<string, string>,
  ) {}

  /** `workers: false`: on PostgreSQL only the two API processes (a scenario with no jobs to run). */
  static async start(t: TestContext, db: TestDb, env: Record<string, string>, options: { workers?: boolean } = {}): Promise<Cluster> {
    const c = new Cluster(t, db, env);
    const roles: Array<Node["role"]> = db.databaseUrl ? ["api", "api", ...(options.workers === false ? [] : (["worker", "worker"] as const))] : ["both"];
    // The first applies the migrations alone; the others start together and find them applied.
    const [first, ...rest] = roles;
    if (first) c.nodes.push({ role: first, server: await c.spawn(first) });
    const servers = await Promise.all(rest.map((role) => c.spawn(role)));
    rest.forEach((role, i) => {
      const server = servers[i];
      if (server) c.nodes.push({ role, server });
    });
    return c;
  }

  private spawn(role: Node["role"]): Promise<ServerProcess> {
    const roleEnv: Record<string, string> = role === "api" ? { WORKERS: "0" } : {};
    return startServerProcess(this.t, this.db, { ...FAST_RECOVERY, ...this.env, ...roleEnv }, { captureStderr: true, readyTimeoutMs: 180_000 });
  }

  /** The base URL of a live API process (round robin over them). */
  url(): string {
    const api = this.nodes.filter((n) => n.role !== "worker");
    const node = api[this.turn++ % api.length];
    if (!node) throw new Error("no API process");
    return node.server.baseUrl;
  }

  /** SIGKILLs the processes that run jobs (on SQLite the only process) and starts replacements. */
  async killAndReplaceWorkers(): Promise<void> {
    await this.killAndReplace((n) => n.role !== "api");
  }

  /** SIGKILLs one process that serves the API (on PostgreSQL the other keeps serving) and starts a replacement. */
  async killAndReplaceOneApi(rng: Rng): Promise<void> {
    const api = this.nodes.filter((n) => n.role !== "worker");
    const victim = api[rng.int(0, api.length - 1)];
    await this.killAndReplace((n) => n === victim);
  }

  private async killAndReplace(which: (n: Node) => boolean): Promise<void> {
    const victims = this.nodes.filter(which);
    await Promise.all(victims.map((n) => kill(n.server)));
    this.kills += victims.length;
    const replacements = await Promise.all(victims.map((n) => this.spawn(n.role)));
    victims.forEach((n, i) => {
      const server = replacements[i];
      if (server) n.server = server;
    });
  }

  /** Everything the processes wrote to stderr (errors at LOG_LEVEL=error). */
  stderr(): string {
    return this.nodes.map((n) => n.server.stderr()).join("");
  }

  /** SIGTERM to every process: graceful shutdown (jobs released, vector indexes saved). */
  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.server.stop()));
  }
}

async function kill(server: ServerProcess): Promise<void> {
  const { proc } = server;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGKILL");
  await exited;
}
