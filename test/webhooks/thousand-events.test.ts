import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually, startTestApp } from "../helpers/harness.js";
import { FAST_RETRIES } from "../helpers/webhook-fixtures.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

const EVENTS = 1_000;

test("1,000 status changes arrive as exactly 1,000 distinct delivery ids, despite failures and retries", async () => {
  const t = await startTestApp({ ...FAST_RETRIES, WEBHOOK_MAX_ATTEMPTS: "10", WORKERS: "4" });
  const secret = "thousand-events-secret";
  // About one delivery in five is answered 500 the first time it arrives: those are retried. Its
  // last character decides (ids are UUIDv7: those made together share their leading, time part).
  const receiver = await startReceiver({
    secret,
    answer: ({ seen, deliveryId }) => (seen === 1 && deliveryId.charCodeAt(deliveryId.length - 1) % 7 === 0 ? 500 : 200),
  });
  try {
    await t.request("POST", "/webhooks/indexing", { body: { url: receiver.url, signing_secret: secret } });
    const ids = new Set<string>();
    for (let i = 0; i < EVENTS; i++) {
      const id = await t.app.store.transaction((tx) =>
        t.app.outbox.recordStatusChange(tx, {
          orgId: t.orgId,
          database: "bulk",
          collection: "bulk",
          itemId: `item-${i}`,
          indexingStatus: i % 10 === 0 ? "errored" : "completed",
        }),
      );
      assert.ok(id);
      ids.add(id);
    }
    assert.equal(ids.size, EVENTS);
    await eventually(async () => receiver.accepted.size >= EVENTS, 120_000, 100);
    assert.equal(receiver.accepted.size, EVENTS);
    assert.deepEqual(new Set(receiver.accepted.keys()), ids);
    assert.ok([...receiver.accepted.values()].every((r) => r.verified));
    const items = new Set([...receiver.accepted.values()].map((r) => r.json.item_id));
    assert.equal(items.size, EVENTS, "one delivery per status change");
    assert.ok(receiver.requests.length > EVENTS, "some deliveries were retried");

    const rows = await eventually(async () => {
      const all = await t.app.store.db.selectFrom("webhook_deliveries").select(["status", "attempts"]).where("org_id", "=", t.orgId).execute();
      return all.every((r) => r.status === "completed") ? all : null;
    }, 30_000);
    assert.equal(rows.length, EVENTS);
    assert.ok(rows.some((r) => Number(r.attempts) > 1));
  } finally {
    await t.close();
    await receiver.close();
  }
});
