import assert from "node:assert/strict";
import { test } from "node:test";
import { HydraDBClient } from "@hydradb/sdk";
import { eventually, startTestApp } from "../helpers/harness.js";
import { FAST_RETRIES, changeStatus } from "../helpers/webhook-fixtures.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

test("the vendor SDK's webhook client works unchanged against this service", async () => {
  const t = await startTestApp({ ...FAST_RETRIES, WEBHOOK_MAX_ATTEMPTS: "1" });
  const secret = "sdk-signing-secret-0001";
  const receiver = await startReceiver({ secret });
  const client = new HydraDBClient({ token: t.key, baseUrl: t.baseUrl, maxRetries: 0 });
  try {
    const before = await client.webhooks.get();
    assert.equal(before.data?.registered, false);

    const registered = await client.webhooks.register({ url: receiver.url, signingSecret: secret });
    assert.equal(registered.data?.registered, true);
    assert.equal(registered.data?.url, receiver.url);
    assert.deepEqual(registered.data?.eventTypes, ["indexing.status_changed"]);
    assert.equal(registered.data?.signingSecretConfigured, true);

    const read = await client.webhooks.get();
    assert.equal(read.data?.signingSecretConfigured, true);

    const ping = await client.webhooks.test();
    assert.equal(ping.data?.delivered, true);
    assert.equal(ping.data?.statusCode, 200);

    receiver.options = { secret, answer: () => 500 };
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "sdk-doc", indexingStatus: "completed" });
    assert.ok(id);
    const failed = await eventually(async () => {
      const d = await client.webhooks.getDelivery({ deliveryId: id });
      return d.data?.status === "failed" ? d.data : null;
    });
    assert.deepEqual(
      [failed.deliveryId, failed.docId, failed.eventType, failed.indexingStatus, failed.attempts, failed.errorCode],
      [id, "sdk-doc", "indexing.status_changed", "completed", 1, "NON_2XX_RESPONSE"],
    );
    assert.ok(!Number.isNaN(Date.parse(failed.createdAt)) && !Number.isNaN(Date.parse(failed.updatedAt)));

    const listed = await client.webhooks.listDeliveries({ limit: 10, status: "permanently_failed" });
    assert.equal(listed.data?.count, 1);
    assert.equal(listed.data?.deliveries[0]?.deliveryId, id);
    assert.equal(listed.data?.nextCursor, null);

    receiver.options = { secret };
    const retried = await client.webhooks.retryDelivery({ deliveryId: id });
    assert.deepEqual([retried.data?.deliveryId, retried.data?.queued], [id, true]);
    const done = await eventually(async () => {
      const d = await client.webhooks.getDelivery({ deliveryId: id });
      return d.data?.status === "completed" ? d.data : null;
    });
    assert.equal(done.attempts, 2);
    assert.ok(receiver.accepted.get(id)?.verified);

    await assert.rejects(client.webhooks.getDelivery({ deliveryId: "no-such-delivery" }), (err: Error & { statusCode?: number }) => err.statusCode === 404);
    await assert.rejects(
      client.webhooks.register({ url: "ftp://example.com/", signingSecret: secret }),
      (err: Error & { statusCode?: number }) => err.statusCode === 400,
    );

    const deleted = await client.webhooks.delete();
    assert.equal(deleted.data?.deleted, true);
    assert.equal((await client.webhooks.get()).data?.registered, false);
  } finally {
    await t.close();
    await receiver.close();
  }
});
