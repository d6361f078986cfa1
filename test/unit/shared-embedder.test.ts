import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { SharedEmbedder } from "../../src/engines/embeddings/shared-embedder.js";
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from "../helpers/fake-embeddings-server.js";

describe("shared embedder with an embeddings endpoint", () => {
  let server: FakeEmbeddingsServer;
  let embedder: SharedEmbedder;

  before(async () => {
    server = await startFakeEmbeddingsServer(8);
  });
  after(async () => {
    await server.close();
  });
  beforeEach(async () => {
    await embedder?.close();
    embedder = new SharedEmbedder({ provider: "openai", baseUrl: server.baseUrl, apiKey: null, model: "fake", dimensions: 8 });
    await embedder.dimensions(); // the provider is created before the calls under test
    server.requests.length = 0;
  });
  after(async () => {
    await embedder.close();
  });

  it("sends what concurrent callers gather as full requests, not spread over idle slots", async () => {
    const texts = Array.from({ length: 128 }, (_, i) => `text number ${i}`);
    const vectors = await Promise.all(texts.map((t) => embedder.embed([t])));
    assert.deepEqual(
      server.requests.map((r) => r.body.input.length),
      [64, 64],
    );
    // Each caller gets its own text's vector back.
    const direct = await embedder.embedNow(texts);
    assert.deepEqual(
      vectors.map((v) => [...v[0]!]),
      direct.map((v) => [...v]),
    );
  });

  it("a few texts gathered while the endpoint is idle go as one request after the linger", async () => {
    const texts = Array.from({ length: 10 }, (_, i) => `short ${i}`);
    await Promise.all(texts.map((t) => embedder.embed([t])));
    assert.deepEqual(
      server.requests.map((r) => r.body.input),
      [texts],
    );
  });

  it("texts arriving while a request runs wait for the linger and go together", async () => {
    const release = server.holdNext();
    const first = Promise.all(Array.from({ length: 64 }, (_, i) => embedder.embed([`first ${i}`])));
    const later = Promise.all(Array.from({ length: 5 }, (_, i) => embedder.embed([`later ${i}`])));
    await later; // the held request does not hold back the texts that came after it
    release();
    await first;
    assert.deepEqual(
      server.requests.map((r) => r.body.input.length),
      [64, 5],
    );
  });
});
