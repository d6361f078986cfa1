import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually, startTestApp } from "../helpers/harness.js";
import { FAST_RETRIES, changeStatus, deliveryWhen } from "../helpers/webhook-fixtures.js";
import { freePort, startReceiver } from "../helpers/webhook-receiver.js";

test("a receiver that is down for a while gets the event once it is back, after several attempts", async () => {
  const t = await startTestApp({ ...FAST_RETRIES, WEBHOOK_MAX_ATTEMPTS: "50" });
  const port = await freePort();
  const secret = "receiver-down-secret";
  let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
  try {
    const reg = await t.request("POST", "/webhooks/indexing", { body: { url: `http://127.0.0.1:${port}/hooks`, signing_secret: secret } });
    assert.equal(reg.status, 200);
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "while-down", indexingStatus: "completed" });
    assert.ok(id);

    // Nothing listens yet: attempts fail with connection errors and are rescheduled.
    const down = await deliveryWhen(t, id, (r) => Number(r.attempts) >= 2);
    assert.deepEqual([down.status, down.error_code], ["pending", "CONNECTION_FAILED"]);

    receiver = await startReceiver({ port, secret });
    const got = await eventually(async () => receiver?.accepted.get(id), 15_000);
    assert.equal(got.verified, true);
    const r = await deliveryWhen(t, id, (cur) => cur.status === "completed");
    assert.ok(Number(r.attempts) > 1, `attempts ${String(r.attempts)}`);
    assert.equal(r.error_code, "");
    assert.equal(receiver.requests.length, 1, "delivered once when the receiver came back");
  } finally {
    await t.close();
    await receiver?.close();
  }
});
