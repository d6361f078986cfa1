import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import type { CheckedTarget, TargetGuard } from "./target-guard.js";

export type DeliveryErrorCode = "TARGET_REFUSED" | "DNS_FAILED" | "CONNECTION_FAILED" | "TLS_FAILED" | "TIMEOUT" | "NON_2XX_RESPONSE" | "TOO_MANY_REDIRECTS";

export type SendResult = { ok: true; statusCode: number } | { ok: false; code: DeliveryErrorCode; message: string; statusCode: number | null };

export interface SenderOptions {
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  /** Extra trusted roots for https targets (tests with a self-signed receiver). */
  readonly ca?: string | Buffer;
}

interface HopAnswer {
  readonly statusCode: number;
  readonly location: string | null;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_RESPONSE_BYTES = 64 * 1024;
const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

/**
 * POSTs one webhook body. Every hop (the URL and each redirect target) goes through the
 * guard, and the connection is made to the address the guard checked, so a DNS answer
 * that changes between check and connect cannot redirect the request. Redirects are
 * followed by re-posting the same body, at most `maxRedirects` times.
 */
export class HttpSender {
  constructor(
    private readonly guard: TargetGuard,
    private readonly options: SenderOptions,
  ) {}

  async send(rawUrl: string, body: Buffer, headers: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<SendResult> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const abort = signal ? AbortSignal.any([signal, deadline]) : deadline;
    let next: { raw: string; base?: URL } = { raw: rawUrl };
    for (let hop = 0; hop <= this.options.maxRedirects; hop++) {
      const checked = await this.guard.check(next.raw, next.base);
      if (!checked.ok) return { ok: false, code: checked.code, message: hop === 0 ? checked.reason : `redirect refused: ${checked.reason}`, statusCode: null };
      let answer: HopAnswer;
      try {
        answer = await this.post(checked.target, body, headers, abort);
      } catch (err) {
        return failure(err, abort.aborted, this.options.timeoutMs);
      }
      if (answer.statusCode >= 200 && answer.statusCode < 300) return { ok: true, statusCode: answer.statusCode };
      if (!REDIRECTS.has(answer.statusCode) || answer.location === null) {
        return { ok: false, code: "NON_2XX_RESPONSE", message: `receiver answered HTTP ${answer.statusCode}`, statusCode: answer.statusCode };
      }
      next = { raw: answer.location, base: checked.target.url };
    }
    return { ok: false, code: "TOO_MANY_REDIRECTS", message: `more than ${this.options.maxRedirects} redirects`, statusCode: null };
  }

  private post(target: CheckedTarget, body: Buffer, headers: Readonly<Record<string, string>>, signal: AbortSignal): Promise<HopAnswer> {
    const secure = target.url.protocol === "https:";
    const options: https.RequestOptions = {
      // Connect to the checked address; Host and the TLS server name keep the URL's name.
      host: target.address,
      family: target.family,
      port: target.url.port || (secure ? 443 : 80),
      path: `${target.url.pathname}${target.url.search}`,
      method: "POST",
      headers: { ...headers, Host: target.url.host, "Content-Length": String(body.length), "User-Agent": "context-store-webhooks/1" },
      agent: false,
      signal,
    };
    if (secure) {
      options.servername = isIP(target.hostname) ? "" : target.hostname;
      if (this.options.ca) options.ca = this.options.ca;
    }
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request(options, (res) => {
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
        });
        const done = (): void => resolve({ statusCode: res.statusCode ?? 0, location: res.headers.location ?? null });
        res.on("end", done);
        res.on("close", done);
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }
}

function failure(err: unknown, aborted: boolean, timeoutMs: number): SendResult {
  if (aborted) return { ok: false, code: "TIMEOUT", message: `no answer within ${timeoutMs} ms`, statusCode: null };
  const code = typeof (err as { code?: unknown }).code === "string" ? (err as { code: string }).code : "";
  const message = err instanceof Error ? err.message : String(err);
  if (TLS_CODE.test(code)) return { ok: false, code: "TLS_FAILED", message: `TLS failed: ${message}`, statusCode: null };
  return { ok: false, code: "CONNECTION_FAILED", message: `connection failed: ${message}`, statusCode: null };
}
