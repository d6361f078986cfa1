import assert from "node:assert/strict";
import { test } from "node:test";
import { backoffDelay } from "../../src/platform/util/backoff.js";

test("backoff: drawn from [base/2, min(cap, base * 2^(attempt-1))], never immediate, capped", () => {
  const bounds = (attempt: number, base: number, cap: number): [number, number] => [
    backoffDelay(attempt, base, cap, () => 0),
    backoffDelay(attempt, base, cap, () => 1),
  ];
  assert.deepEqual(bounds(1, 1_000, 60_000), [500, 1_000]);
  assert.deepEqual(bounds(2, 1_000, 60_000), [500, 2_000]);
  assert.deepEqual(bounds(4, 1_000, 60_000), [500, 8_000]);
  assert.deepEqual(bounds(10, 1_000, 60_000), [500, 60_000], "the cap bounds the ceiling");
  assert.deepEqual(bounds(1, 1_000, 300), [300, 300], "a cap below base/2 bounds the floor too");
  assert.equal(
    backoffDelay(3, 1_000, 60_000, () => 0.5),
    2_250,
    "uniform between the bounds",
  );
  for (let i = 0; i < 200; i++) {
    const d = backoffDelay(5, 100, 10_000);
    assert.ok(d >= 50 && d <= 1_600, `${d} within [50, 1600]`);
  }
});
