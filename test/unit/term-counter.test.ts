import assert from "node:assert/strict";
import { test } from "node:test";
import { termFrequencies } from "../../src/engines/bm25/index.js";
import { TermCounter } from "../../src/engines/bm25/term-counter.js";

const texts = Array.from(
  { length: 150 },
  (_, i) => `Chunk ${i}: the running runners ran ${i % 7} laps at https://example.com/track-${i}; #relay with @coach and mail coach${i}@example.org`,
);

test("the worker's counts equal termFrequencies on this thread, in order, over several messages", async () => {
  const counter = new TermCounter();
  try {
    const counted = await counter.count(texts);
    assert.equal(counted.length, texts.length);
    counted.forEach((counts, i) => assert.deepEqual([...counts], [...termFrequencies(texts[i]!)], `text ${i}`));
    assert.deepEqual(await counter.count([]), []);
  } finally {
    await counter.close();
  }
});

test("calls in flight when the counter closes, and calls after it, are counted on this thread", async () => {
  const counter = new TermCounter();
  const inFlight = counter.count(texts);
  await counter.close();
  const after = await counter.count(texts.slice(0, 3));
  assert.deepEqual(
    (await inFlight).map((m) => [...m]),
    texts.map((t) => [...termFrequencies(t)]),
  );
  assert.deepEqual(
    after.map((m) => [...m]),
    texts.slice(0, 3).map((t) => [...termFrequencies(t)]),
  );
});
