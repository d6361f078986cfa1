import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for an OpenAI-compatible /v1/chat/completions endpoint. Each request is answered
// by the next scripted reply (or by a function of the request), shaped like the real API; requests
// are recorded for assertions.

export type ScriptedReply =
  { readonly content: string } | { readonly status: number; readonly body: string } | { readonly delayMs: number; readonly content: string };

export interface RecordedRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: { model?: string; messages?: { role: string; content: string }[] };
}

export interface FakeChatServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

function completion(content: string): string {
  return JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "fake-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeChatServer(replies: readonly ScriptedReply[] | ((body: RecordedRequest["body"]) => ScriptedReply)): Promise<FakeChatServer> {
  const queue = typeof replies === "function" ? [] : [...replies];
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const body = JSON.parse(raw) as RecordedRequest["body"];
      requests.push({ path: request.url ?? "", authorization: request.headers.authorization, body });
      const reply: ScriptedReply = (typeof replies === "function" ? replies(body) : queue.shift()) ?? {
        status: 500,
        body: '{"error":{"message":"no scripted reply"}}',
      };
      if ("status" in reply) {
        response.writeHead(reply.status, { "content-type": "application/json" }).end(reply.body);
        return;
      }
      if ("delayMs" in reply && typeof reply.delayMs === "number") await sleep(reply.delayMs);
      if (!response.destroyed) response.writeHead(200, { "content-type": "application/json" }).end(completion(reply.content));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
