import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for a Cohere-style rerank endpoint (POST /v1/rerank, as Cohere, Jina, vLLM and
// llama.cpp's server answer it). Each document's relevance comes from `score`; `behaviour` makes
// the next requests fail or answer late. Requests are recorded for assertions.

export interface RerankRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: { model?: string; query?: string; documents?: string[]; top_n?: number };
}

export interface FakeRerankServer {
  readonly baseUrl: string;
  readonly requests: RerankRequest[];
  /** `status` answers every request with that error; `delayMs` answers late. */
  behaviour: { status?: number; delayMs?: number };
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeRerankServer(score: (query: string, document: string) => number): Promise<FakeRerankServer> {
  const requests: RerankRequest[] = [];
  const fake: FakeRerankServer = { baseUrl: "", requests, behaviour: {}, close: () => Promise.resolve() };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = JSON.parse(await readBody(request)) as RerankRequest["body"];
      requests.push({ path: request.url ?? "", authorization: request.headers.authorization, body });
      const { status, delayMs } = fake.behaviour;
      if (delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (response.destroyed) return;
      if (status !== undefined) {
        response.writeHead(status, { "content-type": "application/json" }).end('{"message":"rerank failed"}');
        return;
      }
      if (request.url !== "/v1/rerank" || typeof body.query !== "string" || !Array.isArray(body.documents)) {
        response.writeHead(400, { "content-type": "application/json" }).end('{"message":"invalid request"}');
        return;
      }
      const query = body.query;
      const results = body.documents
        .map((document, index) => ({ index, relevance_score: score(query, document) }))
        .sort((a, b) => b.relevance_score - a.relevance_score)
        .slice(0, body.top_n ?? body.documents.length);
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ id: "rerank-test", results, meta: { api_version: { version: "1" }, billed_units: { search_units: 1 } } }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
