import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { cosineSimilarity, createEmbedder, EmbedderError } from "../../src/engines/embeddings/index.js";
import type { EmbedderConfig } from "../../src/engines/embeddings/index.js";
import { startFakeEmbeddingsServer } from "../helpers/fake-embeddings-server.js";
import type { FakeEmbeddingsServer } from "../helpers/fake-embeddings-server.js";

describe("openai-compatible embedder", () => {
  let server: FakeEmbeddingsServer;
  const sleeps: number[] = [];
  const config = (): EmbedderConfig => ({
    provider: "openai",
    baseUrl: server.baseUrl,
    apiKey: "sk-test",
    model: "text-embedding-fake",
    dimensions: 8,
    batchSize: 3,
    retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 50 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });

  before(async () => {
    server = await startFakeEmbeddingsServer(8);
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.failNext.length = 0;
    server.delayMs = 0;
    server.base64 = "answer";
    sleeps.length = 0;
  });

  it("batches inputs, sends the key and model, and returns normalized vectors in order", async () => {
    const embedder = await createEmbedder(config());
    const texts = ["alpha", "beta", "gamma", "delta", "alphas"];
    const vectors = await embedder.embed(texts);
    assert.equal(embedder.id, "openai:text-embedding-fake:8");
    assert.deepEqual(
      server.requests.map((r) => r.body.input),
      [
        ["alpha", "beta", "gamma"],
        ["delta", "alphas"],
      ],
    );
    assert.equal(server.requests[0]?.authorization, "Bearer sk-test");
    assert.equal(server.requests[0]?.body.model, "text-embedding-fake");
    assert.equal(server.requests[0]?.body.dimensions, undefined);
    assert.equal(vectors.length, 5);
    const [alpha, , , , alphas] = vectors;
    assert.ok(alpha && alphas);
    assert.ok(Math.abs(Math.hypot(...alpha) - 1) < 1e-6);
    assert.ok(cosineSimilarity(alpha, alphas) > 0.9, "the index field, not response order, places vectors");
    await embedder.close();
  });

  it("retries 429 (honouring Retry-After) and 5xx, then succeeds", async () => {
    server.failNext.push({ status: 429, retryAfter: "0.02" }, { status: 503 });
    const embedder = await createEmbedder(config());
    const vectors = await embedder.embed(["one"]);
    assert.equal(vectors.length, 1);
    assert.equal(server.requests.length, 3);
    assert.equal(sleeps.length, 2);
    assert.equal(sleeps[0], 20);
    assert.ok((sleeps[1] ?? -1) >= 0 && (sleeps[1] ?? 99) <= 20);
  });

  it("gives up after the retry budget and does not retry other 4xx", async () => {
    server.failNext.push({ status: 500 }, { status: 500 }, { status: 500 });
    const embedder = await createEmbedder(config());
    await assert.rejects(embedder.embed(["x"]), (e: unknown) => e instanceof EmbedderError && e.retryable && /answered 500/.test(e.message));
    assert.equal(server.requests.length, 3);

    server.requests.length = 0;
    server.failNext.push({ status: 400 });
    await assert.rejects(embedder.embed(["x"]), (e: unknown) => e instanceof EmbedderError && !e.retryable && /answered 400/.test(e.message));
    assert.equal(server.requests.length, 1);
  });

  it("times out slow requests and rejects wrong dimensions", async () => {
    server.delayMs = 300;
    const slow = await createEmbedder({ ...config(), timeoutMs: 50, retry: { maxRetries: 0 } } as EmbedderConfig);
    await assert.rejects(slow.embed(["x"]), /timed out after 50 ms/);
    server.delayMs = 0;
    const wrong = await createEmbedder({ ...config(), dimensions: 16 } as EmbedderConfig);
    await assert.rejects(wrong.embed(["x"]), /returned 8 dimensions, configured 16/);
  });

  it("asks for base64 vectors, and reads floats from a server that ignores it or refuses it", async () => {
    const texts = ["alpha", "beta", "gamma", "delta"];
    const floats = await (await createEmbedder({ ...config(), encoding: "float" } as EmbedderConfig)).embed(texts);
    assert.equal(server.requests[0]?.body.encoding_format, "float");

    server.requests.length = 0;
    const base64 = await (await createEmbedder(config())).embed(texts);
    assert.deepEqual(
      server.requests.map((r) => r.body.encoding_format),
      ["base64", "base64"],
    );
    assert.deepEqual(base64, floats);

    server.base64 = "ignore";
    assert.deepEqual(await (await createEmbedder(config())).embed(texts), floats);

    server.base64 = "refuse";
    server.requests.length = 0;
    const refused = await createEmbedder(config());
    assert.deepEqual(await refused.embed(texts), floats);
    // Refused once, then floats for this request and every later one; no retry budget spent.
    assert.deepEqual(
      server.requests.map((r) => r.body.encoding_format),
      ["base64", "float", "float"],
    );
    assert.equal(sleeps.length, 0);
  });

  it("sends dimensions only when asked", async () => {
    const embedder = await createEmbedder({ ...config(), requestDimensions: true } as EmbedderConfig);
    await embedder.embed(["x"]);
    assert.equal(server.requests[0]?.body.dimensions, 8);
  });
});
