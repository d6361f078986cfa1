import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { cosineSimilarity, createEmbedder } from "../../src/engines/embeddings/index.js";
import type { Embedder } from "../../src/engines/embeddings/index.js";

describe("local embedder (USE lite, worker pool)", () => {
  let embedder: Embedder;
  before(async () => {
    // Small batches so one call spreads over both workers and results must be put back in order.
    embedder = await createEmbedder({ provider: "local", workers: 2, batchSize: 2 });
  });
  after(async () => {
    await embedder.close();
  });

  it("loads offline and returns unit-length 512-d vectors in input order", async () => {
    assert.equal(embedder.dimensions, 512);
    assert.equal(embedder.id, "local:use-lite:512");
    const texts = [
      "The cat sleeps on the sofa.",
      "Stock markets fell sharply today.",
      "A kitten is napping on the couch.",
      "How do I reset my password?",
      "The cat sleeps on the sofa.",
    ];
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, texts.length);
    for (const v of vectors) {
      assert.equal(v.length, 512);
      const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      assert.ok(Math.abs(norm - 1) < 1e-4);
    }
    const [first, , , , again] = vectors;
    assert.ok(first && again);
    assert.ok(cosineSimilarity(first, again) > 0.9999, "identical inputs map to identical vectors regardless of worker");
  });

  it("places similar sentences closer than unrelated ones", async () => {
    const [cat, kitten, stocks, password, login] = await embedder.embed([
      "The cat sleeps on the sofa.",
      "A kitten is napping on the couch.",
      "Stock markets fell sharply today.",
      "How do I reset my password?",
      "I forgot my login credentials.",
    ]);
    assert.ok(cat && kitten && stocks && password && login);
    assert.ok(cosineSimilarity(cat, kitten) > cosineSimilarity(cat, stocks) + 0.1);
    assert.ok(cosineSimilarity(password, login) > cosineSimilarity(password, kitten) + 0.1);
  });

  it("returns an empty list for no input", async () => {
    assert.deepEqual(await embedder.embed([]), []);
  });
});

describe("local embedder query lane", () => {
  let embedder: Embedder;
  before(async () => {
    embedder = await createEmbedder({ provider: "local", workers: 1, batchSize: 4, queryWorkers: 1 });
  });
  after(async () => {
    await embedder.close();
  });

  it("embeds an urgent text while ingestion's batches are still queued, with the same vector", async () => {
    const finished: string[] = [];
    const batchTexts = Array.from({ length: 64 }, (_, i) => `Paragraph ${i} of a long document about quarterly planning and hiring.`);
    const batches = embedder.embed(batchTexts).then((v) => {
      finished.push("batches");
      return v;
    });
    const urgent = embedder.embed(["How do I reset my password?"], { urgent: true }).then((v) => {
      finished.push("urgent");
      return v;
    });
    const [[queryVector], batchVectors] = await Promise.all([urgent, batches]);
    // 16 batches of 4 on the one batch worker: the urgent text does not wait for them.
    assert.deepEqual(finished, ["urgent", "batches"]);
    assert.equal(batchVectors.length, 64);
    const [plain] = await embedder.embed(["How do I reset my password?"]);
    assert.ok(queryVector && plain);
    assert.ok(cosineSimilarity(queryVector, plain) > 0.9999, "both lanes run the same model");
  });

  it("queries waiting together share one model call, and each gets its own vector back", async () => {
    const questions = Array.from({ length: 9 }, (_, i) => `Who approved invoice number ${i * 7} last week?`);
    // Sent at once: the first takes the idle lane alone, the rest wait and go together.
    const together = await Promise.all(questions.map((q) => embedder.embed([q], { urgent: true })));
    const alone: Float32Array[] = [];
    for (const q of questions) alone.push(...(await embedder.embed([q], { urgent: true })));
    assert.equal(together.length, questions.length);
    together.forEach(([v], i) => {
      assert.ok(v && alone[i]);
      assert.ok(cosineSimilarity(v, alone[i]) > 0.9999, `question ${i} got its own vector`);
      // and not its neighbour's
      if (i > 0) assert.ok(cosineSimilarity(v, alone[i - 1]!) < 0.9999);
    });
  });
});

describe("local embedder close", () => {
  it("closing while model calls are under way settles every caller and leaves the process running", async () => {
    // Stopping a thread in the middle of a model call aborted the process (Napi::Error in
    // onnxruntime); this file's process would die here, failing the run.
    for (let round = 0; round < 6; round++) {
      const embedder = await createEmbedder({ provider: "local", workers: 1, batchSize: 8, queryWorkers: 1 });
      const calls = [
        embedder.embed(["a question about harbour cranes"], { urgent: true }),
        embedder.embed(Array.from({ length: 24 }, (_, i) => `batch text ${i} about tides and container ships`)),
      ].map((call) =>
        call.then(
          (vectors) => vectors.length,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, round * 4));
      await embedder.close();
      for (const outcome of await Promise.all(calls)) assert.ok(outcome === 1 || outcome === 24 || outcome === "embedder closed", `outcome ${String(outcome)}`);
    }
  });
});
