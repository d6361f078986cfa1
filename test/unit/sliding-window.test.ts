import assert from "node:assert/strict";
import { test } from "node:test";
import { clientKey } from "../../src/platform/http/client-address.js";
import { belowBudgetAt, counted, estimate, rolled, type WindowCounts } from "../../src/platform/http/sliding-window.js";

const W = 60_000;

test("sliding window: the previous window's events fade out over the current one; later windows forget", () => {
  let c: WindowCounts | undefined;
  for (let i = 0; i < 10; i++) c = counted(c, 120_000 + i, W);
  assert.deepEqual(c, { windowStart: 120_000, previous: 0, current: 10 });
  assert.equal(estimate(c, 150_000, W), 10);
  assert.equal(estimate(c, 180_000, W), 10, "the whole previous window still within the last minute");
  assert.equal(estimate(c, 210_000, W), 5);
  assert.equal(estimate(c, 240_000, W), 0);
  assert.deepEqual(rolled(c, 185_000, W), { windowStart: 180_000, previous: 10, current: 0 });
  assert.deepEqual(rolled(c, 500_000, W), { windowStart: 480_000, previous: 0, current: 0 });
});

test("sliding window: when the estimate falls below a budget again", () => {
  const full: WindowCounts = { windowStart: 120_000, previous: 0, current: 10 };
  assert.equal(belowBudgetAt(full, 130_000, 10, W), 180_000, "at the window's end, then fading");
  assert.equal(belowBudgetAt(full, 130_000, 5, W), 210_000);
  assert.equal(belowBudgetAt(full, 130_000, 11, W), 130_000, "below already");
  const mixed: WindowCounts = { windowStart: 180_000, previous: 10, current: 4 };
  // 10 * (1 - e) + 4 < 10 once e > 0.4 of the window.
  assert.equal(belowBudgetAt(mixed, 181_000, 10, W), 204_000);
  assert.ok(estimate(mixed, 204_001, W) < 10 && estimate(mixed, 203_999, W) >= 10);
});

test("client keys: IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64", () => {
  assert.equal(clientKey("203.0.113.7"), "203.0.113.7");
  assert.equal(clientKey("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(clientKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(clientKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  assert.equal(clientKey("2001:db8::5"), "2001:db8:0:0::/64");
  assert.equal(clientKey("::1"), "0:0:0:0::/64");
});
