/**
 * Our offline encoder (the service's local USE-lite embedder, 512 dimensions) runs once per text:
 * every item and every question is embedded here, and the Float32Arrays are handed to each system.
 * Each question is also embedded alone on the query lane (as the service embeds a query) to
 * measure the per-query embedding time that is added to every peer's search time.
 * The embedded set is saved to a directory (JSON + one binary file of vectors) for the child processes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createLocalEmbedder } from "../../src/engines/embeddings/local-embedder.js";
import type { TextDataSet } from "./datasets.js";
import type { DataSet } from "./types.js";

export async function embedDataSets(sets: TextDataSet[]): Promise<{ sets: DataSet[]; seconds: number }> {
  const embedder = await createLocalEmbedder({ workers: 2, batchSize: 32, queryWorkers: 1 });
  try {
    const started = performance.now();
    const out: DataSet[] = [];
    for (const set of sets) {
      const corpora = [];
      for (const c of set.corpora) {
        const vectors = await embedder.embed(c.items.map((i) => i.text));
        corpora.push({ ...c, items: c.items.map((item, n) => ({ ...item, vector: vectors[n]! })) });
      }
      await embedder.embed(["warm up the query lane"], { urgent: true });
      const questions = [];
      for (const q of set.questions) {
        const t0 = performance.now();
        const [vector] = await embedder.embed([q.text], { urgent: true });
        questions.push({ ...q, vector: vector!, embedMs: performance.now() - t0 });
      }
      out.push({ ...set, corpora, questions });
    }
    return { sets: out, seconds: (performance.now() - started) / 1000 };
  } finally {
    await embedder.close();
  }
}

export function saveDataSet(set: DataSet, dir: string): void {
  const vectors: Float32Array[] = [...set.corpora.flatMap((c) => c.items.map((i) => i.vector)), ...set.questions.map((q) => q.vector)];
  const bytes = new Float32Array(vectors.length * 512);
  vectors.forEach((v, n) => bytes.set(v, n * 512));
  writeFileSync(`${dir}/${set.name}.bin`, bytes);
  const strip = <T extends { vector: Float32Array }>({ vector: _vector, ...rest }: T): Omit<T, "vector"> => rest;
  const json = { ...set, corpora: set.corpora.map((c) => ({ ...c, items: c.items.map(strip) })), questions: set.questions.map(strip) };
  writeFileSync(`${dir}/${set.name}.json`, JSON.stringify(json));
}

export function loadDataSet(name: string, dir: string): DataSet {
  const json = JSON.parse(readFileSync(`${dir}/${name}.json`, "utf8")) as Omit<DataSet, "corpora" | "questions"> & {
    corpora: Array<Omit<DataSet["corpora"][number], "items"> & { items: Array<Omit<DataSet["corpora"][number]["items"][number], "vector">> }>;
    questions: Array<Omit<DataSet["questions"][number], "vector">>;
  };
  const raw = readFileSync(`${dir}/${name}.bin`);
  const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  let n = 0;
  const next = (): Float32Array => all.slice(512 * n, 512 * ++n);
  const corpora = json.corpora.map((c) => ({ ...c, items: c.items.map((i) => ({ ...i, vector: next() })) }));
  return { ...json, corpora, questions: json.questions.map((q) => ({ ...q, vector: next() })) };
}
