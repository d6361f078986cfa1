import assert from "node:assert/strict";
import { test } from "node:test";
import { Coalescer } from "../../src/platform/util/coalescer.js";

test("calls made together are flushed as one batch, each caller gets its own output", async () => {
  const batches: number[][] = [];
  const doubler = new Coalescer<number, number>(async (inputs) => {
    batches.push([...inputs]);
    return inputs.map((n) => n * 2);
  });
  const outputs = await Promise.all([1, 2, 3, 4].map((n) => doubler.submit(n)));
  assert.deepEqual(outputs, [2, 4, 6, 8]);
  assert.deepEqual(batches, [[1, 2, 3, 4]]);
});

test("calls arriving while a flush runs wait for the next flush, in batches of at most maxBatch", async () => {
  const batches: number[][] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const echo = new Coalescer<number, number>(async (inputs) => {
    batches.push([...inputs]);
    if (batches.length === 1) await gate;
    return inputs;
  }, 2);
  const first = echo.submit(0);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  const later = [1, 2, 3].map((n) => echo.submit(n));
  release();
  assert.deepEqual(await Promise.all([first, ...later]), [0, 1, 2, 3]);
  assert.deepEqual(batches, [[0], [1, 2], [3]]);
});

test("a failing batch is retried input by input, so only the bad input's caller fails", async () => {
  const batches: string[][] = [];
  const upper = new Coalescer<string, string>(async (inputs) => {
    batches.push([...inputs]);
    if (inputs.includes("bad")) throw new Error("bad input");
    return inputs.map((s) => s.toUpperCase());
  });
  const results = await Promise.allSettled(["a", "bad", "c"].map((s) => upper.submit(s)));
  assert.deepEqual(
    results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message)),
    ["A", "bad input", "C"],
  );
  assert.deepEqual(batches, [["a", "bad", "c"], ["a"], ["bad"], ["c"]]);
});

test("a flush that returns the wrong number of outputs fails its callers instead of mismatching them", async () => {
  const broken = new Coalescer<number, number>(async () => []);
  const results = await Promise.allSettled([broken.submit(1), broken.submit(2)]);
  assert.deepEqual(
    results.map((r) => r.status),
    ["rejected", "rejected"],
  );
  assert.throws(() => new Coalescer<number, number>(async (x) => x, 0), RangeError);
});
