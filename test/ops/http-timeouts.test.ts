import assert from "node:assert/strict";
import { connect, type Socket } from "node:net";
import { after, before, describe, test } from "node:test";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";

const HEADERS_MS = 600;
const BODY_IDLE_MS = 600;
const REQUEST_MS = 3_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A raw connection: what it received, and when the server closed it (ms after opening). */
interface Raw {
  readonly socket: Socket;
  received(): string;
  closed: Promise<number>;
}

async function open(t: TestApp): Promise<Raw> {
  const { port } = new URL(t.baseUrl);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const started = Date.now();
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
  socket.on("error", () => undefined); // a reset is also a close
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now() - started)));
  return { socket, received: () => text, closed };
}

/** Writes `chunks` one by one, `gapMs` apart, until the socket closes; returns when done or closed. */
async function trickle(raw: Raw, chunks: readonly string[], gapMs: number): Promise<void> {
  for (const chunk of chunks) {
    if (raw.socket.destroyed) return;
    raw.socket.write(chunk);
    await sleep(gapMs);
  }
}

describe("slow clients are closed: headers, body silence and the whole request have deadlines", () => {
  let t: TestApp;
  let auth: string;
  before(async () => {
    t = await startTestApp({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      HTTP_BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS),
    });
    auth = `Authorization: Bearer ${t.key}\r\nAPI-Version: 2\r\n`;
    await createReadyDatabase(t, "slow");
  });
  after(async () => t.close());

  test("a connection that sends nothing, and one trickling its headers (slowloris), are answered 408 and closed", async () => {
    const silent = await open(t);
    const loris = await open(t);
    const sending = trickle(loris, ["GET /healthz HTTP/1.1\r\nHost: x\r\n", ...Array.from({ length: 40 }, (_, i) => `X-Slow-${i}: y\r\n`)], 100);
    for (const raw of [silent, loris]) {
      const ms = await raw.closed;
      assert.ok(ms >= HEADERS_MS - 50 && ms < HEADERS_MS + 2_500, `closed after ${ms} ms`);
    }
    await sending;
    assert.match(loris.received(), /^HTTP\/1.1 408 /);
  });

  test("a request body that stops arriving is answered 408 and closed after the idle deadline", async () => {
    const raw = await open(t);
    raw.socket.write(`POST /context/ingest HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"type":`);
    const ms = await raw.closed;
    assert.ok(ms >= BODY_IDLE_MS - 50 && ms < BODY_IDLE_MS + 2_500, `closed after ${ms} ms`);
    assert.match(raw.received(), /^HTTP\/1.1 408 /);
  });

  test("a body trickled a byte at a time, never silent for long, is closed at the whole request's deadline", async () => {
    const raw = await open(t);
    raw.socket.write(`POST /databases HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n`);
    void trickle(
      raw,
      Array.from({ length: 100 }, () => " "),
      200,
    );
    const ms = await raw.closed;
    assert.ok(ms >= REQUEST_MS - 100 && ms < REQUEST_MS + 2_500, `closed after ${ms} ms`);
    assert.match(raw.received(), /^HTTP\/1.1 408 /);
  });

  test("an upload that keeps coming, slowly, for longer than the idle deadline, is taken; the connection then serves another request", async () => {
    const boundary = "----slowupload";
    const note = `# Slow link\n\n${"The upload arrives in pieces over a slow link. ".repeat(200)}\n`;
    const body = Buffer.from(
      [
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nknowledge\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="database"\r\n\r\nslow\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="slow.md"\r\nContent-Type: text/markdown\r\n\r\n${note}\r\n`,
        `--${boundary}--\r\n`,
      ].join(""),
    );
    const raw = await open(t);
    raw.socket.write(
      `POST /context/ingest HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // About 2 s in all (more than three idle deadlines), never silent for more than 300 ms.
    const pieces = 8;
    const size = Math.ceil(body.length / pieces);
    const started = Date.now();
    for (let i = 0; i < pieces; i++) {
      await sleep(i === 0 ? 0 : 280);
      raw.socket.write(body.subarray(i * size, (i + 1) * size));
    }
    while (!/\r\n\r\n[\s\S]*"success"/.test(raw.received()) && !raw.socket.destroyed) await sleep(20);
    assert.ok(Date.now() - started > 3 * BODY_IDLE_MS, "the upload outlasted the idle deadline");
    assert.match(raw.received(), /^HTTP\/1.1 202 /);
    // Keep-alive: the next request on the same connection is answered, not cut by a timer of the last one.
    await sleep(BODY_IDLE_MS + 300);
    raw.socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    while ((raw.received().match(/HTTP\/1.1 /g) ?? []).length < 2 && !raw.socket.destroyed) await sleep(20);
    assert.match(raw.received(), /HTTP\/1.1 200 OK[\s\S]*"status":"ok"/);
    raw.socket.destroy();
  });
});
