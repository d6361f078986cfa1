// Retrieval against peers: `npm run bench:peers [-- --conversations N] [--systems us,LanceDB,...] [--datasets locomo,knowledge]`.
// One run, the same data, the same vectors (our offline encoder, computed once here), the same
// questions for: us (the real service in process: fast with graph_context off and on, thinking,
// text), LanceDB (vector, full-text, hybrid), Orama (hybrid), MiniSearch (BM25), PostgreSQL used
// directly (tsvector + pgvector fused by RRF; only with DATABASE_URL) and mem0 (infer off, local
// embeddings endpoint). Data: LoCoMo as memories (as bench:retrieval) and a knowledge set (fastify and
// pino documentation from node_modules, questions in bench/data/knowledge-questions.json). Each system
// runs in its own child process per data set (memory is that process's); the questions are asked of
// every system in turn, a tenth of them at a time (bench/peers/interleave.ts); see bench/peers/*.ts.
import { spawn, type ChildProcess } from "node:child_process";
import { on } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { option } from "./bench-utils.js";
import { knowledgeTexts, locomoTexts } from "./peers/datasets.js";
import { SYSTEMS } from "./peers/registry.js";
import { printTable } from "./peers/report.js";
import { latencyPasses, runInterleaved } from "./peers/interleave.js";
import { serveSystem, type Command, type Report } from "./peers/run-system.js";
import { SERVICE_NODE_FLAGS } from "./service-node-flags.js";
import type { SystemResult } from "./peers/run-system.js";
import { embedDataSets, loadDataSet, saveDataSet } from "./peers/vectors.js";

const listOption = (name: string): string[] | null => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? "").split(",") : null;
};

const ORDER = ["multi-hop", "temporal", "open-domain", "single-hop", "one-doc", "two-doc"];

async function* commands(): AsyncIterable<Command> {
  for await (const [command] of on(process, "message")) yield command as Command;
}

async function child(system: string, dataset: string, dir: string): Promise<void> {
  const entry = SYSTEMS.find((s) => s.name === system);
  if (!entry) throw new Error(`unknown system ${system}`);
  const data = loadDataSet(dataset, dir);
  // Each report is handed to the channel before the next step, the last one before the process ends.
  const send = (r: Report): Promise<void> => new Promise((resolve) => process.send?.(r, () => resolve()) ?? resolve());
  await serveSystem(await entry.create(), data, send, commands());
  process.exit(0);
}

function spawnChild(system: string, dataset: string, dir: string): ChildProcess {
  const { DATABASE_URL, ...env } = process.env;
  // Our service runs as `npm start` runs it; every other system with Node's defaults.
  const flags = system === "us" ? SERVICE_NODE_FLAGS : [];
  return spawn(process.execPath, [...process.execArgv, ...flags, process.argv[1]!, "--child", system, dataset, dir], {
    env: { ...env, PEERS_DATABASE_URL: DATABASE_URL ?? "", MEM0_TELEMETRY: "false" },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  const conversations = option("conversations", 10);
  const datasets = listOption("datasets") ?? ["locomo", "knowledge"];
  const systems = SYSTEMS.filter((s) => (listOption("systems") ?? SYSTEMS.map((x) => x.name)).includes(s.name));
  console.log(
    `bench:peers ${new Date().toISOString()} | ${cpus().length} cores (${cpus()[0]?.model ?? "?"}) | load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} | node ${process.version}`,
  );
  const texts = [];
  if (datasets.includes("locomo")) texts.push(locomoTexts(conversations));
  if (datasets.includes("knowledge")) texts.push(await knowledgeTexts());
  const { sets, seconds } = await embedDataSets(texts);
  const dir = mkdtempSync(join(tmpdir(), "peers-data-"));
  for (const set of sets) saveDataSet(set, dir);
  for (const s of sets) {
    const items = s.corpora.reduce((n, c) => n + c.items.length, 0);
    const embed = s.questions.map((q) => q.embedMs).sort((a, b) => a - b);
    console.log(
      `${s.name}: ${s.corpora.length} corpora, ${items} items (${s.name === "locomo" ? "turns" : `chunks of ${s.corpora[0]?.source.kind === "files" ? s.corpora[0].source.files.length : 0} documents`}), ${s.questions.length} questions (asked ${latencyPasses(s.questions.length)} time(s) for latency, recall from the first), ${s.depth} results asked per question; question embedding alone p50 ${embed[Math.floor(embed.length / 2)]?.toFixed(1)} ms`,
    );
  }
  console.log(
    `our encoder embedded every item and question once in ${seconds.toFixed(1)} s; peers' latency = search call + that question's measured embedding time; ours = the /query request (it embeds inside)`,
  );
  for (const set of sets) {
    const skipped = systems.flatMap((s) => {
      const why = s.skip();
      return why === null ? [] : [{ system: s.name, dataset: set.name, modes: [], indexSeconds: NaN, indexRssMb: NaN, peakRssMb: NaN, error: why }];
    });
    const running = systems.filter((s) => !skipped.some((k) => k.system === s.name)).map((s) => s.name);
    const measured = await runInterleaved(running, set, (system) => spawnChild(system, set.name, dir));
    const results: SystemResult[] = systems.map((s) => skipped.find((k) => k.system === s.name) ?? measured.find((m) => m.system === s.name)!);
    const categories = ORDER.filter((c) => set.questions.some((q) => q.category === c));
    printTable(`${set.name} (${set.questions.length} questions)`, categories, results);
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `\nrun took ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

const c = process.argv.indexOf("--child");
if (c >= 0) await child(process.argv[c + 1] ?? "", process.argv[c + 2] ?? "", process.argv[c + 3] ?? "");
else await main();
