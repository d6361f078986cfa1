import assert from "node:assert/strict";
import { test } from "node:test";
import { ByteBudget } from "../../src/platform/util/byte-budget.js";

const settled = () => new Promise((r) => setImmediate(r));

test("takes within the capacity are granted at once; a take past it waits until enough is given back", async () => {
  const budget = new ByteBudget(100);
  const a = await budget.take(60);
  const b = await budget.take(40);
  assert.equal(budget.inUse, 100);
  let granted = false;
  const c = budget.take(30).then((give) => ((granted = true), give));
  await settled();
  assert.equal(granted, false, "30 more bytes than the capacity allows were granted");
  b();
  await settled();
  assert.equal(granted, true);
  assert.equal(budget.inUse, 90);
  a();
  (await c)();
  assert.equal(budget.inUse, 0);
});

test("a weight above the capacity takes all of it and runs alone instead of waiting forever", async () => {
  const budget = new ByteBudget(100);
  const small = await budget.take(10);
  let huge = false;
  const big = budget.take(5_000).then((give) => ((huge = true), give));
  await settled();
  assert.equal(huge, false);
  small();
  const give = await big;
  assert.equal(huge, true);
  assert.equal(budget.inUse, 100);
  give();
  assert.equal(budget.inUse, 0);
});

test("grants go in order: a waiting large take is not overtaken by later small ones", async () => {
  const budget = new ByteBudget(100);
  const first = await budget.take(80);
  const order: string[] = [];
  const large = budget.take(50).then((give) => (order.push("large"), give));
  const small = budget.take(10).then((give) => (order.push("small"), give));
  await settled();
  assert.deepEqual(order, [], "the small take passed the large one waiting before it");
  first();
  await Promise.all([large, small]);
  assert.deepEqual(order, ["large", "small"]);
});

test("giving back twice frees the bytes once", async () => {
  const budget = new ByteBudget(100);
  const keep = await budget.take(30);
  const give = await budget.take(50);
  give();
  give();
  assert.equal(budget.inUse, 30);
  keep();
});
