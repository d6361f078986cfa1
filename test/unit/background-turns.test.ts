import assert from "node:assert/strict";
import { test } from "node:test";
import { BackgroundTurns } from "../../src/platform/util/background-turns.js";

const pass = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test("waiting steps are let go one per pass of the event loop, in the order they asked", async () => {
  const turns = new BackgroundTurns();
  const released: number[] = [];
  const steps = [0, 1, 2].map((n) => turns.turn().then(() => released.push(n)));
  assert.deepEqual(released, [], "no step runs in the pass that asked for its turn");
  await pass();
  assert.deepEqual(released, [0]);
  await pass();
  assert.deepEqual(released, [0, 1]);
  await Promise.all(steps);
  assert.deepEqual(released, [0, 1, 2]);
});

test("other work of the same pass runs between two background steps", async () => {
  const turns = new BackgroundTurns();
  const order: string[] = [];
  const first = turns.turn().then(() => order.push("step 1"));
  const second = turns.turn().then(() => order.push("step 2"));
  // Work scheduled after both asked (a request's next step) runs before the second step.
  setImmediate(() => order.push("request"));
  await Promise.all([first, second]);
  assert.deepEqual(order, ["step 1", "request", "step 2"]);
});

test("a turn asked after the queue emptied is still granted", async () => {
  const turns = new BackgroundTurns();
  await turns.turn();
  await pass();
  await pass();
  let granted = false;
  await turns.turn().then(() => (granted = true));
  assert.equal(granted, true);
});
