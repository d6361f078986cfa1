import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { eventually, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { FAST_RETRIES, changeStatus, deliveryWhen, finished } from "../helpers/webhook-fixtures.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

describe("indexing webhook deliveries", () => {
  let t: TestApp;
  let receiver: Receiver;
  let secret: string;
  before(async () => {
    t = await startTestApp({ ...FAST_RETRIES, WEBHOOK_MAX_ATTEMPTS: "3", WEBHOOK_TIMEOUT_MS: "1000" });
    receiver = await startReceiver();
    const reg = await t.request("POST", "/webhooks/indexing", { body: { url: receiver.url, generate_signing_secret: true } });
    assert.equal(reg.status, 200, reg.text);
    secret = field<string>(reg.body, "signing_secret");
    receiver.options = { secret };
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const settled = (id: string) => deliveryWhen(t, id, finished);

  test("a terminal status change is delivered once, signed over the raw body, with the documented fields", async () => {
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "doc-1", indexingStatus: "completed" });
    assert.ok(id);
    const got = await eventually(async () => receiver.accepted.get(id), 10_000);
    assert.equal(got.verified, true, "the receiver verified the HMAC with the secret it was given");
    assert.match(String(got.headers["x-service-signature"]), /^sha256=[0-9a-f]{64}$/);
    assert.equal(got.headers["x-service-delivery-id"], id);
    assert.equal(got.event, "indexing.status_changed");
    assert.equal(got.headers["content-type"], "application/json");
    assert.equal(got.json.delivery_id, id);
    assert.equal(got.json.event_type, "indexing.status_changed");
    assert.equal(got.json.item_id, "doc-1");
    assert.equal(got.json.database, "docs");
    assert.equal(got.json.collection, "docs");
    assert.equal(got.json.indexing_status, "completed");
    assert.equal(got.json.error_code, "");
    assert.equal(got.json.error_message, "");
    assert.match(String(got.json.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const r = await settled(id);
    assert.deepEqual(
      {
        delivery_id: r.delivery_id,
        doc_id: r.doc_id,
        event_type: r.event_type,
        indexing_status: r.indexing_status,
        status: r.status,
        attempts: r.attempts,
        error_code: r.error_code,
        error_message: r.error_message,
      },
      {
        delivery_id: id,
        doc_id: "doc-1",
        event_type: "indexing.status_changed",
        indexing_status: "completed",
        status: "completed",
        attempts: 1,
        error_code: "",
        error_message: "",
      },
    );
    assert.ok(!Number.isNaN(Date.parse(String(r.created_at))) && !Number.isNaN(Date.parse(String(r.updated_at))));
    assert.equal(r.success, undefined, "not wrapped in the envelope");
  });

  test("errored, failed and success outcomes; non-terminal statuses send nothing", async () => {
    for (const status of ["queued", "processing", "graph_creation"]) {
      assert.equal(await changeStatus(t.app, { orgId: t.orgId, itemId: "doc-x", indexingStatus: status }), null);
    }
    const errored = await changeStatus(t.app, {
      orgId: t.orgId,
      itemId: "doc-2",
      indexingStatus: "errored",
      errorCode: "PARSE_FAILED",
      errorMessage: "not a PDF",
      database: "kb",
      collection: "c1",
    });
    const success = await changeStatus(t.app, { orgId: t.orgId, itemId: "doc-3", indexingStatus: "success" });
    const failed = await changeStatus(t.app, { orgId: t.orgId, itemId: "doc-4", indexingStatus: "failed", errorCode: "TIMEOUT" });
    assert.ok(errored && success && failed);
    const e = await eventually(async () => receiver.accepted.get(errored));
    assert.deepEqual(
      [e.json.indexing_status, e.json.error_code, e.json.error_message, e.json.database, e.json.collection],
      ["errored", "PARSE_FAILED", "not a PDF", "kb", "c1"],
    );
    assert.equal((await eventually(async () => receiver.accepted.get(success))).json.indexing_status, "completed");
    assert.equal((await eventually(async () => receiver.accepted.get(failed))).json.indexing_status, "failed");
    assert.ok(!receiver.requests.some((r) => r.json.item_id === "doc-x"));
  });

  test("a status change rolled back with its transaction leaves no delivery and no job", async () => {
    const holder: { id: string | null } = { id: null };
    await assert.rejects(
      t.app.store.transaction(async (tx) => {
        holder.id = await t.app.outbox.recordStatusChange(tx, {
          orgId: t.orgId,
          database: "d",
          collection: "c",
          itemId: "doc-rb",
          indexingStatus: "completed",
        });
        throw new Error("the status write failed");
      }),
      /status write failed/,
    );
    const recorded = holder.id;
    assert.ok(recorded);
    assert.equal((await t.request("GET", `/webhooks/indexing/deliveries/${recorded}`)).status, 404);
    const jobs = await t.app.store.db.selectFrom("jobs").select("payload").where("kind", "=", "webhook.deliver").execute();
    assert.ok(!jobs.some((j) => j.payload.includes(recorded)));
  });

  test("non-2xx answers are retried with backoff until bounded attempts end the record failed; a manual retry delivers", async () => {
    receiver.options = { secret, answer: () => 503 };
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "doc-503", indexingStatus: "completed" });
    assert.ok(id);
    const failed = await settled(id);
    assert.equal(failed.status, "failed");
    assert.equal(failed.attempts, 3);
    assert.equal(failed.error_code, "NON_2XX_RESPONSE");
    assert.match(String(failed.error_message), /503/);
    assert.equal(receiver.requests.filter((r) => r.deliveryId === id).length, 3);

    const listed = await t.request("GET", "/webhooks/indexing/deliveries", { query: { status: "failed" } });
    assert.ok(field<Record<string, unknown>[]>(listed.body, "deliveries").some((d) => d.delivery_id === id));

    receiver.options = { secret };
    const retry = await t.request("POST", `/webhooks/indexing/deliveries/${id}/retry`);
    assert.equal(retry.status, 202);
    assert.deepEqual([retry.body.delivery_id, retry.body.queued], [id, true]);
    const done = await settled(id);
    assert.deepEqual([done.status, done.attempts, done.error_code], ["completed", 4, ""]);
    assert.ok(receiver.accepted.has(id));
  });

  test("an answer slower than WEBHOOK_TIMEOUT_MS counts as a timeout and is retried", async () => {
    receiver.options = { secret, delayMs: 1_500 };
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "doc-slow", indexingStatus: "completed" });
    assert.ok(id);
    const r = await deliveryWhen(t, id, (cur) => Number(cur.attempts) >= 1);
    assert.equal(r.error_code, "TIMEOUT");
    receiver.options = { secret };
    assert.equal((await settled(id)).status, "completed");
  });

  test("with signing disabled deliveries carry no signature, and a receiver expecting one rejects them", async () => {
    assert.equal((await t.request("DELETE", "/webhooks/indexing/signing-secret")).status, 200);
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "doc-unsigned", indexingStatus: "completed" });
    assert.ok(id);
    const first = await eventually(async () => receiver.requests.find((r) => r.deliveryId === id));
    assert.equal(first.headers["x-service-signature"], undefined);
    assert.equal(first.answered, 401);
    const r = await settled(id);
    assert.deepEqual([r.status, r.error_code, r.last_status_code], ["failed", "NON_2XX_RESPONSE", 401]);

    const set = await t.request("POST", "/webhooks/indexing/signing-secret", { body: { signing_secret: "a-new-secret-of-some-length" } });
    assert.equal(set.status, 200);
    receiver.options = { secret: "a-new-secret-of-some-length" };
    await t.request("POST", `/webhooks/indexing/deliveries/${id}/retry`);
    assert.equal((await settled(id)).status, "completed", "the retry is signed with the current secret");
  });

  test("the test route sends a signed webhook.test event and reports the answer", async () => {
    const res = await t.request("POST", "/webhooks/indexing/test");
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.delivered, res.body.status_code], [true, 200]);
    const got = receiver.requests.find((r) => r.event === "webhook.test");
    assert.ok(got?.verified);
  });

  test("finished deliveries are forgotten by the hourly prune after 30 days; pending ones are kept", async () => {
    receiver.options = { secret: undefined };
    const done = await changeStatus(t.app, { orgId: t.orgId, itemId: "old-done", indexingStatus: "completed" });
    assert.ok(done);
    await deliveryWhen(t, done, finished);
    const db = t.app.store.db;
    const longAgo = Date.now() - 31 * 24 * 60 * 60_000;
    await db.updateTable("webhook_deliveries").set({ updated_at: longAgo }).where("id", "=", done).execute();
    await db
      .insertInto("webhook_deliveries")
      .values({
        id: "stuck-pending",
        org_id: t.orgId,
        event_type: "indexing.status_changed",
        doc_id: "x",
        database_name: "d",
        collection: "c",
        indexing_status: "completed",
        payload: "{}",
        status: "pending",
        attempts: 0,
        max_attempts: 1,
        error_code: "",
        error_message: "",
        last_status_code: null,
        created_at: longAgo,
        updated_at: longAgo,
        completed_at: null,
      })
      .execute();
    const job = await t.app.queue.enqueue("jobs.prune", {});
    await eventually(async () => (await t.app.queue.get(job))?.status === "completed");
    assert.equal((await t.request("GET", `/webhooks/indexing/deliveries/${done}`)).status, 404);
    assert.equal((await t.request("GET", "/webhooks/indexing/deliveries/stuck-pending")).status, 200);
  });
});
