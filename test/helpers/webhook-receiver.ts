import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP request as the receiver saw it, duplicates included. */
export interface Received {
  readonly deliveryId: string;
  readonly event: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  readonly json: Record<string, unknown>;
  readonly verified: boolean;
  readonly answered: number;
}

export interface ReceiverOptions {
  /** Verify X-Service-Signature with this secret; unsigned or wrongly signed requests get 401. */
  secret?: string | null;
  /** Listen on this port (a receiver coming back up); 0 picks one. */
  port?: number;
  /** Status to answer a first-seen or repeated delivery; 200 unless given. */
  answer?: (r: { deliveryId: string; seen: number; path: string }) => number;
  /** Redirect target for 3xx answers. */
  location?: string;
  /** Hold each request this long before answering. */
  delayMs?: number;
}

/**
 * A webhook receiver as a customer would write one: verifies the signature over the raw
 * bytes in constant time, rejects requests when it expects a signature and none matches,
 * and deduplicates on X-Service-Delivery-ID.
 */
export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: Received[];
  /** First accepted (2xx) request per delivery id. */
  readonly accepted: Map<string, Received>;
  options: ReceiverOptions;
  close(): Promise<void>;
}

function verifySignature(raw: Buffer, header: string | string[] | undefined, secret: string | null | undefined): boolean {
  if (!secret || typeof header !== "string" || !header.startsWith("sha256=")) return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(raw).digest("hex"), "utf8");
  const given = Buffer.from(header.slice("sha256=".length), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const requests: Received[] = [];
  const accepted = new Map<string, Received>();
  const seen = new Map<string, number>();
  const state: { options: ReceiverOptions } = { options };
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const o = state.options;
      const raw = Buffer.concat(chunks);
      const deliveryId = String(req.headers["x-service-delivery-id"] ?? "");
      const count = (seen.get(deliveryId) ?? 0) + 1;
      seen.set(deliveryId, count);
      const verified = verifySignature(raw, req.headers["x-service-signature"], o.secret);
      let answered = o.answer ? o.answer({ deliveryId, seen: count, path: req.url ?? "/" }) : 200;
      if (o.secret !== undefined && !verified) answered = 401;
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      } catch {
        // A body that is not JSON is what this receiver answers 400 to.
        answered = 400;
      }
      const received: Received = { deliveryId, event: String(req.headers["x-service-event"] ?? ""), headers: req.headers, raw, json, verified, answered };
      requests.push(received);
      if (answered >= 200 && answered < 300 && !accepted.has(deliveryId)) accepted.set(deliveryId, received);
      const reply = (): void => {
        if (answered >= 300 && answered < 400 && o.location) res.setHeader("Location", o.location);
        res.writeHead(answered).end();
      };
      if (!o.delayMs) return reply();
      const timer = setTimeout(() => {
        timers.delete(timer);
        reply();
      }, o.delayMs);
      timers.add(timer);
    });
  });
  server.listen(options.port ?? 0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    accepted,
    get options() {
      return state.options;
    },
    set options(value: ReceiverOptions) {
      state.options = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (yet): a receiver that is down. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => probe.once("listening", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
