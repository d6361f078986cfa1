// A local stand-in for an OpenAI-compatible /v1/embeddings endpoint: answers with deterministic
// vectors, and can be told to fail the next requests with given statuses.
import { createServer } from "node:http";
import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeEmbeddingsServer {
  baseUrl: string;
  requests: Array<{ authorization?: string; body: { model: string; input: string[]; dimensions?: number; encoding_format?: string } }>;
  /** How it treats `encoding_format: "base64"`: answers base64 (as OpenAI does), answers floats anyway, or refuses it with a 422. */
  base64: "answer" | "ignore" | "refuse";
  /** Statuses to answer with before answering normally, consumed in order. */
  failNext: Array<{ status: number; retryAfter?: string }>;
  /** Milliseconds to wait before answering. */
  delayMs: number;
  dimensions: number;
  /** Holds the next request until the returned function is called (later requests pass). */
  holdNext(): () => void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Letter histogram of the text: similar strings get similar vectors. */
function vectorFor(text: string, dimensions: number): number[] {
  const v = new Array<number>(dimensions).fill(0);
  for (const ch of text.toLowerCase()) v[ch.charCodeAt(0) % dimensions] = (v[ch.charCodeAt(0) % dimensions] ?? 0) + 1;
  return v;
}

export async function startFakeEmbeddingsServer(dimensions = 8): Promise<FakeEmbeddingsServer> {
  let held: Promise<void> | null = null;
  const holdNext = (): (() => void) => {
    let release = (): void => undefined;
    held = new Promise<void>((resolve) => (release = resolve));
    return () => release();
  };
  const state: Omit<FakeEmbeddingsServer, "baseUrl" | "close"> = { requests: [], failNext: [], delayMs: 0, dimensions, holdNext, base64: "answer" };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = JSON.parse(await readBody(req)) as { model: string; input: string[]; dimensions?: number; encoding_format?: string };
      state.requests.push({ ...(req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }), body });
      const gate = held;
      held = null;
      if (gate !== null) await gate;
      if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
      const failure = state.failNext.shift();
      if (failure !== undefined) {
        res.writeHead(failure.status, {
          "content-type": "application/json",
          ...(failure.retryAfter === undefined ? {} : { "retry-after": failure.retryAfter }),
        });
        res.end(JSON.stringify({ error: { message: `fake failure ${failure.status}`, type: "server_error" } }));
        return;
      }
      const base64 = body.encoding_format === "base64";
      if (base64 && state.base64 === "refuse") {
        // As a server validating the field with pydantic answers.
        res.writeHead(422, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: [{ loc: ["body", "encoding_format"], msg: "Input should be 'float'" }] }));
        return;
      }
      const encode = (v: number[]): number[] | string =>
        base64 && state.base64 === "answer" ? Buffer.from(Float32Array.from(v).buffer).toString("base64") : v;
      // Reversed order on purpose: clients must sort by `index`, as the real API does not promise order.
      const data = body.input.map((text, index) => ({ object: "embedding", index, embedding: encode(vectorFor(text, state.dimensions)) })).reverse();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fake = Object.assign(state, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return fake;
}
