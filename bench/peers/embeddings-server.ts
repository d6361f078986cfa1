/**
 * A tiny OpenAI-compatible embeddings endpoint on 127.0.0.1 for mem0: POST /v1/embeddings answers
 * with our precomputed vectors (looked up by text); a text it has not seen (mem0 also embeds the
 * entities it extracts) is embedded on the spot by our encoder and counted. Every other path (the
 * LLM stub) answers 503 and is counted: with inference off, mem0 must not call an LLM.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Embedder } from "../../src/engines/embeddings/embedder.js";

export interface EmbeddingsServer {
  readonly url: string;
  readonly stats: { known: number; unknown: number; llmCalls: number };
  close(): Promise<void>;
}

export async function startEmbeddingsServer(known: Map<string, Float32Array>, embedder: Embedder): Promise<EmbeddingsServer> {
  const stats = { known: 0, unknown: 0, llmCalls: 0 };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (p: Buffer) => parts.push(p));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        stats.llmCalls++;
        res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "no LLM in this benchmark" } }));
        return;
      }
      const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as { input: string | string[]; model: string };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const missing = inputs.filter((t) => !known.has(t));
      stats.known += inputs.length - missing.length;
      stats.unknown += missing.length;
      void embedder
        .embed(missing, { urgent: true })
        .then((vectors) => {
          const fresh = new Map(missing.map((t, n) => [t, vectors[n]!]));
          const data = inputs.map((t, index) => ({ object: "embedding", index, embedding: Array.from(known.get(t) ?? fresh.get(t) ?? []) }));
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
        })
        .catch((error: unknown) => res.writeHead(500).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
