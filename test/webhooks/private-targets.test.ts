import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";
import { FAST_RETRIES, changeStatus, deliveryWhen, finished, sharedStoreAndReceiver } from "../helpers/webhook-fixtures.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

const REFUSED_WITHOUT_FLAG = [
  "http://example.com/hooks",
  "https://127.0.0.1/hooks",
  "https://127.1/hooks",
  "https://2130706433/hooks",
  "https://0x7f000001/hooks",
  "https://localhost/hooks",
  "https://LOCALHOST./hooks",
  "https://api.localhost/hooks",
  "https://10.0.0.5/hooks",
  "https://172.20.1.1/hooks",
  "https://192.168.1.1/hooks",
  "https://100.64.1.1/hooks",
  "https://169.254.169.254/latest/meta-data",
  "https://metadata.google.internal/computeMetadata/v1",
  "https://0.0.0.0/hooks",
  "https://224.0.0.1/hooks",
  "https://[::1]/hooks",
  "https://[::]/hooks",
  "https://[::ffff:127.0.0.1]/hooks",
  "https://[::ffff:169.254.169.254]/hooks",
  "https://[fd00:ec2::254]/hooks",
  "https://[fe80::1]/hooks",
  "https://[fc00::1]/hooks",
  "https://user:pass@example.com/hooks",
  "ftp://example.com/hooks",
];

describe("only public HTTPS targets without WEBHOOK_ALLOW_PRIVATE_URLS", () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ WORKERS: "0" });
  });
  after(async () => t.close());

  test("registration refuses plain http, loopback, private, link-local, CGNAT, multicast, unspecified and metadata targets", async () => {
    for (const url of REFUSED_WITHOUT_FLAG) {
      const res = await t.request("POST", "/webhooks/indexing", { body: { url } });
      assert.equal(res.status, 400, url);
      assert.equal(field(res.body, "detail.error_code"), "INVALID_INPUT", url);
      assert.match(field<string>(res.body, "detail.message"), /not allowed/, url);
    }
    assert.equal((await t.request("GET", "/webhooks/indexing")).body.registered, false);
  });
});

describe("redirects are followed by hand and every hop is checked again", () => {
  let t: TestApp;
  let final: Receiver;
  let hop: Receiver;
  before(async () => {
    t = await startTestApp({ ...FAST_RETRIES, WEBHOOK_MAX_ATTEMPTS: "2" });
    final = await startReceiver();
    hop = await startReceiver({ answer: () => 307 });
    await t.request("POST", "/webhooks/indexing", { body: { url: hop.url, signing_secret: "redirect-secret-123" } });
    final.options = { secret: "redirect-secret-123" };
  });
  after(async () => {
    await t.close();
    await final.close();
    await hop.close();
  });

  const settled = (id: string) => deliveryWhen(t, id, finished);

  test("a redirect to an allowed target delivers the same signed body there", async () => {
    hop.options = { answer: () => 307, location: `${final.url}?via=redirect` };
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "r1", indexingStatus: "completed" });
    assert.ok(id);
    const r = await settled(id);
    assert.equal(r.status, "completed");
    const got = final.accepted.get(id);
    assert.ok(got?.verified);
  });

  test("a redirect to a metadata or link-local address is refused, even with the development flag", async () => {
    for (const location of ["http://169.254.169.254/latest/meta-data", "http://[::ffff:169.254.169.254]/", "http://[fe80::1]/x", "ftp://example.com/"]) {
      hop.options = { answer: () => 302, location };
      const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "r2", indexingStatus: "completed" });
      assert.ok(id);
      const r = await settled(id);
      assert.deepEqual([r.status, r.error_code, r.attempts], ["failed", "TARGET_REFUSED", 1], location);
      assert.match(String(r.error_message), /redirect refused/);
    }
  });

  test("a redirect loop ends in TOO_MANY_REDIRECTS", async () => {
    hop.options = { answer: () => 308, location: hop.url };
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "r3", indexingStatus: "completed" });
    assert.ok(id);
    const r = await settled(id);
    assert.deepEqual([r.status, r.error_code], ["failed", "TOO_MANY_REDIRECTS"]);
    assert.equal(hop.requests.filter((q) => q.deliveryId === id).length, 12, "two attempts of 1 + 5 redirects each");
  });
});

describe("a target that became refused", () => {
  const shared = sharedStoreAndReceiver();

  test("fails its delivery with TARGET_REFUSED and never connects", async () => {
    const { db, receiver } = shared;
    const dev = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: "true", WORKERS: "0" }, db);
    await dev.request("POST", "/webhooks/indexing", { body: { url: receiver.url } });
    const { key, orgId } = { key: dev.key, orgId: dev.orgId };
    await dev.close();

    const prod = await startTestApp({}, db);
    try {
      const id = await changeStatus(prod.app, { orgId, itemId: "late", indexingStatus: "completed" });
      assert.ok(id);
      const r = await deliveryWhen(prod, id, finished, key);
      assert.deepEqual([r.error_code, r.attempts], ["TARGET_REFUSED", 1]);
      assert.match(String(r.error_message), /plain http is not allowed/);
      assert.equal(receiver.requests.length, 0);
    } finally {
      await prod.close();
    }
  });
});
