import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";

describe("per-key rate limit", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_MINUTE: "3" });
  });
  after(async () => t.close());

  test("beyond the budget: 429 RATE_LIMITED with Retry-After; other keys are unaffected", async () => {
    for (let i = 0; i < 3; i++) assert.equal((await t.request("GET", "/databases")).status, 200);
    const limited = await t.request("GET", "/databases");
    assert.equal(limited.status, 429);
    assert.equal(field(limited.body, "error.code"), "RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("retry-after"));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 20, `Retry-After ${retryAfter}`);
    assert.match(field<string>(limited.body, "error.message"), new RegExp(`${retryAfter} seconds`));
    const other = await t.newOrgKey();
    assert.equal((await t.request("GET", "/databases", { key: other.key })).status, 200);
    assert.equal((await t.request("GET", "/healthz", { key: null })).status, 200, "health checks are not limited");
  });
});
