/**
 * Us: the real service in process (createApplication + app.server.inject, as bench:retrieval does),
 * embedded SQLite store in a temporary directory, default configuration. Each corpus is ingested
 * through POST /context/ingest into its own collection (LoCoMo as memories; the knowledge set as
 * Markdown files, which the service parses, chunks and embeds itself); every question goes through
 * POST /query, so the measured time includes the service's own query embedding.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApplication } from "../../src/app.js";
import { loadConfig } from "../../src/platform/config.js";
import { enterSystemScope } from "../../src/platform/store/row-scope.js";
import type { IndexingStatus } from "../../src/features/items/item-types.js";
import type { DataSet, PeerSystem, Question } from "./types.js";

const MODES: Record<string, Record<string, unknown>> = {
  fast: { mode: "fast", graph_context: false },
  "fast +graph_context": { mode: "fast", graph_context: true },
  thinking: { mode: "thinking", graph_context: false },
  "text (BM25)": { query_by: "text", graph_context: false },
};

export async function createUs(): Promise<PeerSystem> {
  enterSystemScope();
  const dataDir = mkdtempSync(join(tmpdir(), "peers-us-"));
  const app = await createApplication(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", JOB_POLL_MS: "20", RATE_LIMIT_PER_MINUTE: "0" }));
  app.worker.start();
  const orgId = (await app.orgs.createOrganization("peers")).id;
  const key = (await app.orgs.createKey(orgId, "peers")).key;
  const database = await app.databases.create(orgId, "peers", []);
  await app.databases.provision(database.id);
  await app.pipeline.warmUp();
  let type: DataSet["type"] = "memory";

  const inject = async (url: string, payload: string | Buffer, contentType: string): Promise<Record<string, unknown>> => {
    const res = await app.server.inject({ method: "POST", url, headers: { authorization: `Bearer ${key}`, "content-type": contentType }, payload });
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json<Record<string, unknown>>();
  };

  let expected = 0;
  const count = async (statuses: IndexingStatus[]): Promise<number> => {
    const row = await app.store.db
      .selectFrom("context_items")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("database_id", "=", database.id)
      .where("status", "in", statuses)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  return {
    modes: Object.keys(MODES),
    embedsQueries: true,
    async index(data) {
      type = data.type;
      for (const c of data.corpora) {
        if (c.source.kind === "memories") {
          await inject(
            "/context/ingest",
            JSON.stringify({ type: "memory", database: "peers", collection: c.name, memories: c.source.memories }),
            "application/json",
          );
          expected += c.source.memories.length;
        } else {
          const form = new FormData();
          for (const [k, v] of Object.entries({ type: "knowledge", database: "peers", collection: c.name })) form.append(k, v);
          form.append("document_metadata", JSON.stringify(c.source.files.map((f) => ({ id: f.id, title: f.id }))));
          for (const f of c.source.files) form.append("files", new Blob([f.text], { type: "text/markdown" }), f.name);
          const body = new Response(form);
          await inject("/context/ingest", Buffer.from(await body.arrayBuffer()), body.headers.get("content-type") ?? "");
          expected += c.source.files.length;
        }
      }
      while ((await count(["graph_creation", "completed", "errored"])) < expected) await new Promise((r) => setTimeout(r, 100));
    },
    async settle() {
      const started = performance.now();
      while ((await count(["completed", "errored"])) < expected) await new Promise((r) => setTimeout(r, 200));
      const errored = await count(["errored"]);
      return `graph extraction finished ${((performance.now() - started) / 1000).toFixed(1)} s after the items were searchable (not in index s; queries start after it)${errored > 0 ? `; ${errored} items errored` : ""}`;
    },
    async search(mode: string, q: Question, depth: number) {
      const res = await inject(
        "/query",
        JSON.stringify({ database: "peers", collection: q.corpus, type, query: q.text, max_results: depth, ...MODES[mode] }),
        "application/json",
      );
      return (res.data as { chunks: Array<{ source_id: string }> }).chunks.map((ch) => ch.source_id);
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
