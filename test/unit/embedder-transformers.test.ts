import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { cosineSimilarity, createEmbedder, EmbedderError } from "../../src/engines/embeddings/index.js";
import { TINY_MODEL_DIMENSIONS, writeTinyBertModel } from "../helpers/tiny-bert-model.js";

describe("transformers embedder", () => {
  const root = mkdtempSync(join(tmpdir(), "tiny-model-"));
  writeTinyBertModel(root, "tiny-bert");
  after(() => rmSync(root, { recursive: true, force: true }));

  it("loads a local ONNX model offline, mean-pools and normalizes", async () => {
    const embedder = await createEmbedder({ provider: "transformers", model: "tiny-bert", localModelPath: root });
    try {
      assert.equal(embedder.dimensions, TINY_MODEL_DIMENSIONS);
      assert.equal(embedder.id, "transformers:tiny-bert:4");
      const [cat, kitten, truck] = await embedder.embed(["the cat", "A Kitten", "the truck engine"]);
      assert.ok(cat && kitten && truck);
      assert.ok(Math.abs(Math.hypot(...cat) - 1) < 1e-5);
      assert.ok(cosineSimilarity(cat, kitten) > 0.95);
      assert.ok(cosineSimilarity(cat, truck) < 0.3);
    } finally {
      await embedder.close();
    }
  });

  it("fails clearly when the model folder is missing and remote models are off", async () => {
    await assert.rejects(
      createEmbedder({ provider: "transformers", model: "no-such-model", localModelPath: root }),
      (error: unknown) => error instanceof EmbedderError && /could not load model no-such-model/.test(error.message),
    );
  });

  it("rejects a configured dimension that does not match the model", async () => {
    const embedder = await createEmbedder({ provider: "transformers", model: "tiny-bert", localModelPath: root, dimensions: 8 });
    try {
      await assert.rejects(embedder.embed(["cat"]), /produced 4 dimensions, expected 8/);
    } finally {
      await embedder.close();
    }
  });
});
