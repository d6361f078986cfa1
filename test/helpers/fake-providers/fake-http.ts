import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The shared part of the fake provider servers (tests and the demo): a local HTTP server on
 * 127.0.0.1 with a request log, injectable failures (revoked token, rate limit of the next
 * calls) and JSON answers. Each provider's fake (<provider>.ts beside this file) supplies the routes.
 */
export interface FakeRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

export interface FakeResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type FakeHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export class FakeHttpServer {
  /** Every request, in order: `METHOD /path?query`. */
  readonly log: string[] = [];
  /**
   * Tests' hook: changes an answer before it is sent (a Link header or a redirect to another
   * origin); returning the answer given leaves it unchanged.
   */
  rewrite: ((req: FakeRequest, res: FakeResponse) => FakeResponse) | null = null;
  private gate: Promise<void> | null = null;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  /** Listens on `port` (0: any free one). */
  static async start(handler: FakeHandler, port = 0): Promise<FakeHttpServer> {
    let self: FakeHttpServer | null = null;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", self?.origin ?? "http://127.0.0.1");
        self?.log.push(`${req.method ?? "GET"} ${url.pathname}${url.search}`);
        const fakeReq: FakeRequest = { method: req.method ?? "GET", url, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
        Promise.resolve(self?.gate)
          .then(() => handler(fakeReq))
          .then((answer) => {
            const out = self?.rewrite ? self.rewrite(fakeReq, answer) : answer;
            res.writeHead(out.status, { "content-type": "application/json; charset=utf-8", ...(out.headers ?? {}) });
            res.end(JSON.stringify(out.body));
          })
          .catch((err: unknown) => {
            res.writeHead(500, { "content-type": "application/json" });
            res.end(JSON.stringify({ message: err instanceof Error ? err.message : String(err) }));
          });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    self = new FakeHttpServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  /** Holds every answer until the returned function is called (a sync caught mid-run). */
  hold(): () => void {
    let release: () => void = () => undefined;
    this.gate = new Promise<void>((resolve) => {
      release = () => {
        this.gate = null;
        resolve();
      };
    });
    return release;
  }

  /** Requests whose path contains `fragment`. */
  count(fragment: string): number {
    return this.log.filter((l) => l.includes(fragment)).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A cursor that is an offset, opaque to clients like the real ones. */
export const encodeOffset = (n: number): string => Buffer.from(`offset:${n}`).toString("base64url");
export function decodeOffset(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return m?.[1] ? Number(m[1]) : -1;
}
