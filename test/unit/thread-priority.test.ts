import assert from "node:assert/strict";
import { once } from "node:events";
import { getPriority } from "node:os";
import { test } from "node:test";
import { Worker } from "node:worker_threads";
import { ExtractionPool } from "../../src/engines/extraction/index.js";

/** Nice values of this process's threads, by thread name as Node sets them (/proc/self/task/<tid>/stat, field 19). */
async function threadNices(): Promise<number[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const nices: number[] = [];
  for (const tid of await readdir("/proc/self/task")) {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, "utf8").catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const nice = Number(fields[16]);
    if (Number.isFinite(nice)) nices.push(nice);
  }
  return nices;
}

test("a background worker thread runs at the nice value it asked for; the process's main thread keeps its own", async () => {
  const source = `
    const { parentPort } = require("node:worker_threads");
    import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL("../../src/platform/util/thread-priority.ts", import.meta.url).href)}); })
      .then((m) => { const applied = m.lowerThreadPriority(10); const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop()); parentPort.postMessage({ applied, nice: require("node:os").getPriority(tid) }); });`;
  const worker = new Worker(source, { eval: true });
  const [reply] = (await once(worker, "message")) as [{ applied: boolean; nice: number }];
  assert.deepEqual(reply, { applied: true, nice: 10 });
  assert.equal(getPriority(process.pid), 0, "the main thread is unchanged");
  await worker.terminate();

  // The extraction pool's background slot does the same; its query lane does not.
  const pool = new ExtractionPool(2, 7);
  await pool.warmUp();
  const nices = await threadNices();
  assert.ok(nices.includes(7), `a thread at nice 7 among ${nices.join(",")}`);
  assert.equal(nices.filter((n) => n === 7).length, 1, "only the background slot");
  await pool.close();
});
