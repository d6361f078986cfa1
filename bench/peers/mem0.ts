/**
 * mem0's open-source TypeScript memory layer (mem0ai/oss Memory), offline: embedder "openai" pointed
 * at our local endpoint serving our vectors (bench/peers/embeddings-server.ts), vector store "memory"
 * (its SQLite file in a temporary directory), history disabled, telemetry off (MEM0_TELEMETRY=false),
 * LLM "openai" pointed at a stub that fails. One user_id per corpus; each item added with
 * `infer: false`. search() with its defaults (threshold 0.1; semantic + its keyword and entity
 * signals, as mem0 3 does). Its latency includes what mem0 embeds inside search (entities of the
 * question, by our encoder through the endpoint) beyond the question vector, which is looked up.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Memory } from "mem0ai/oss";
import { createLocalEmbedder } from "../../src/engines/embeddings/local-embedder.js";
import { startEmbeddingsServer } from "./embeddings-server.js";
import type { EmbeddingsServer } from "./embeddings-server.js";
import type { PeerSystem, Question } from "./types.js";

export async function createMem0(): Promise<PeerSystem & { notes(): string }> {
  process.env.MEM0_TELEMETRY = "false";
  const { Memory: MemoryClass } = await import("mem0ai/oss");
  const dir = mkdtempSync(join(tmpdir(), "peers-mem0-"));
  const embedder = await createLocalEmbedder({ workers: 1, queryWorkers: 0 });
  const known = new Map<string, Float32Array>();
  const server: EmbeddingsServer = await startEmbeddingsServer(known, embedder);
  let memory: Memory | undefined;
  const ids = new Map<string, string>();

  return {
    modes: ["search (infer off)"],
    embedsQueries: false,
    async index(data) {
      for (const c of data.corpora) for (const i of c.items) known.set(i.text, i.vector);
      for (const q of data.questions) known.set(q.text, q.vector);
      memory = new MemoryClass({
        embedder: { provider: "openai", config: { apiKey: "local", model: "use-lite", baseURL: `${server.url}/v1`, embeddingDims: 512 } },
        vectorStore: { provider: "memory", config: { collectionName: "peers", dimension: 512, dbPath: join(dir, "vectors.db") } },
        llm: { provider: "openai", config: { apiKey: "local", model: "stub", baseURL: `${server.url}/llm/v1` } },
        disableHistory: true,
      });
      for (const c of data.corpora) {
        for (const i of c.items) {
          const added = await memory.add(i.text, { userId: c.name, infer: false, metadata: { doc: i.doc } });
          for (const r of added.results) ids.set(r.id, i.doc);
        }
      }
    },
    async search(_mode: string, q: Question, depth: number) {
      if (!memory) throw new Error("mem0 not indexed");
      const found = await memory.search(q.text, { topK: depth, filters: { user_id: q.corpus } });
      return found.results.map((r) => String(r.metadata?.doc ?? ids.get(r.id) ?? r.id));
    },
    notes() {
      const s = server.stats;
      return `embeddings endpoint: ${s.known} precomputed texts served, ${s.unknown} other texts (entities) embedded live by our encoder; LLM stub called ${s.llmCalls} times`;
    },
    async close() {
      await server.close();
      await embedder.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
