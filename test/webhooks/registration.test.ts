import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { field, startTestApp, type TestApp } from "../helpers/harness.js";
import { changeStatus } from "../helpers/webhook-fixtures.js";

describe("webhook registration and signing secrets", () => {
  let t: TestApp;
  const url = "http://127.0.0.1:9/hooks";
  before(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: "true", WORKERS: "0" });
  });
  after(async () => t.close());

  test("nothing registered at first; deleting nothing says so", async () => {
    const res = await t.request("GET", "/webhooks/indexing");
    assert.equal(res.status, 200);
    assert.deepEqual(
      { registered: res.body.registered, url: res.body.url, event_types: res.body.event_types, signing_secret_configured: res.body.signing_secret_configured },
      { registered: false, url: null, event_types: [], signing_secret_configured: false },
    );
    assert.equal(res.body.success, undefined, "webhook management answers are not wrapped in the envelope");
    assert.equal(field((await t.request("DELETE", "/webhooks/indexing")).body, "deleted"), false);
    assert.equal(await changeStatus(t.app, { orgId: t.orgId, itemId: "d", indexingStatus: "completed" }), null, "no registration, no delivery");
  });

  test("register, generate a secret shown once, keep it when re-registering without one", async () => {
    const plain = await t.request("POST", "/webhooks/indexing", { body: { url } });
    assert.equal(plain.status, 200);
    assert.deepEqual(
      [plain.body.registered, plain.body.url, plain.body.event_types, plain.body.signing_secret_configured],
      [true, url, ["indexing.status_changed"], false],
    );
    assert.equal(plain.body.signing_secret, undefined);
    assert.deepEqual(field(plain.body, "data.registered"), true, "mirrored under data for the vendor SDK");

    const generated = await t.request("POST", "/webhooks/indexing", { body: { url, generate_signing_secret: true } });
    const secret = field<string>(generated.body, "signing_secret");
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(generated.body.signing_secret_configured, true);

    const read = await t.request("GET", "/webhooks/indexing");
    assert.equal(read.body.signing_secret_configured, true);
    assert.doesNotMatch(read.text, new RegExp(secret), "the secret is never shown again");

    const again = await t.request("POST", "/webhooks/indexing", { body: { url: "http://127.0.0.1:10/other", signing_secret: null } });
    assert.deepEqual([again.body.url, again.body.signing_secret_configured], ["http://127.0.0.1:10/other", true]);
    const row = await t.app.store.db.selectFrom("webhook_endpoints").select("signing_secret").where("org_id", "=", t.orgId).executeTakeFirst();
    assert.ok(row?.signing_secret && t.app.secrets.webhooks.isCurrent(row.signing_secret), "the secret is sealed under the master key by default");
    assert.ok(!row.signing_secret.includes(secret));
  });

  test("an own secret of at least 16 characters; both secret fields is 422; bad input is 400", async () => {
    const own = await t.request("POST", "/webhooks/indexing", { body: { url, signing_secret: "0123456789abcdef" } });
    assert.deepEqual([own.status, own.body.signing_secret_configured, own.body.signing_secret], [200, true, undefined]);

    const both = await t.request("POST", "/webhooks/indexing", { body: { url, signing_secret: "0123456789abcdef", generate_signing_secret: true } });
    assert.equal(both.status, 422);
    assert.equal(field(both.body, "detail.error_code"), "VALIDATION_ERROR");

    const cases: Array<[string, Record<string, unknown>]> = [
      ["short secret", { url, signing_secret: "too-short" }],
      ["missing url", {}],
      ["url not a string", { url: 42 }],
      ["not a URL", { url: "not a url" }],
      ["unknown event type", { url, event_types: ["indexing.deleted"] }],
      ["generate not boolean", { url, generate_signing_secret: "yes" }],
    ];
    for (const [name, body] of cases) {
      const res = await t.request("POST", "/webhooks/indexing", { body });
      assert.equal(res.status, 400, name);
      assert.equal(field(res.body, "detail.error_code"), "INVALID_INPUT", name);
    }
  });

  test("signing-secret routes: generate with no body, set one, disable", async () => {
    await t.request("POST", "/webhooks/indexing", { body: { url } });
    const bare = await t.request("POST", "/webhooks/indexing/signing-secret");
    assert.equal(bare.status, 200);
    assert.match(field<string>(bare.body, "signing_secret"), /^whsec_/);
    assert.equal(bare.body.signing_secret_configured, true);

    const emptyObject = await t.request("POST", "/webhooks/indexing/signing-secret", { body: {} });
    assert.equal(emptyObject.status, 200, emptyObject.text);
    assert.notEqual(emptyObject.body.signing_secret, bare.body.signing_secret, "a new secret each time");
    for (const rawBody of ["null", "[]", '"secret"']) {
      const res = await t.request("POST", "/webhooks/indexing/signing-secret", { rawBody, headers: { "Content-Type": "application/json" } });
      assert.equal(res.status, 400, `raw ${JSON.stringify(rawBody)}`);
    }
    // An empty body is no body, whatever its Content-Type (clients set application/json on every call).
    const empty = await t.request("POST", "/webhooks/indexing/signing-secret", { rawBody: "", headers: { "Content-Type": "application/json" } });
    assert.equal(empty.status, 200, empty.text);
    assert.match(field<string>(empty.body, "signing_secret"), /^whsec_/);

    const set = await t.request("POST", "/webhooks/indexing/signing-secret", { body: { signing_secret: "my-own-secret-value" } });
    assert.deepEqual([set.status, set.body.signing_secret, set.body.signing_secret_configured], [200, undefined, true]);
    const short = await t.request("POST", "/webhooks/indexing/signing-secret", { body: { signing_secret: "short" } });
    assert.equal(short.status, 400);

    const disabled = await t.request("DELETE", "/webhooks/indexing/signing-secret");
    assert.deepEqual([disabled.status, disabled.body.signing_secret_configured], [200, false]);
    assert.equal((await t.request("GET", "/webhooks/indexing")).body.signing_secret_configured, false);
  });

  test("delete the registration; secret routes and test then answer 404", async () => {
    await t.request("POST", "/webhooks/indexing", { body: { url } });
    const deleted = await t.request("DELETE", "/webhooks/indexing");
    assert.deepEqual([deleted.status, deleted.body.deleted], [200, true]);
    assert.equal((await t.request("GET", "/webhooks/indexing")).body.registered, false);
    for (const [method, path] of [
      ["POST", "/webhooks/indexing/signing-secret"],
      ["DELETE", "/webhooks/indexing/signing-secret"],
      ["POST", "/webhooks/indexing/test"],
    ] as const) {
      const res = await t.request(method, path);
      assert.equal(res.status, 404, path);
      assert.equal(field(res.body, "detail.error_code"), "NOT_FOUND");
    }
  });

  test("registrations and deliveries belong to one organization; keys are required", async () => {
    await t.request("POST", "/webhooks/indexing", { body: { url } });
    const id = await changeStatus(t.app, { orgId: t.orgId, itemId: "mine", indexingStatus: "completed" });
    assert.ok(id);
    const other = await t.newOrgKey();
    assert.equal((await t.request("GET", "/webhooks/indexing", { key: other.key })).body.registered, false);
    const foreign = await t.request("GET", `/webhooks/indexing/deliveries/${id}`, { key: other.key });
    assert.equal(foreign.status, 404);
    assert.equal(field(foreign.body, "detail.error_code"), "DELIVERY_NOT_FOUND");
    assert.equal(field((await t.request("GET", "/webhooks/indexing/deliveries", { key: other.key })).body, "count"), 0);
    assert.equal((await t.request("POST", `/webhooks/indexing/deliveries/${id}/retry`, { key: other.key })).status, 404);
    assert.equal((await t.request("GET", "/webhooks/indexing", { key: null })).status, 401);
    assert.equal((await t.request("GET", `/webhooks/indexing/deliveries/${id}`)).body.status, "pending", "WORKERS=0: nothing delivered");
    const retry = await t.request("POST", `/webhooks/indexing/deliveries/${id}/retry`);
    assert.deepEqual([retry.status, retry.body.queued], [200, false], "a pending delivery is not queued twice");
  });

  test("the delivery list pages newest first with a cursor and filters by status", async () => {
    const org = await t.newOrgKey();
    await t.request("POST", "/webhooks/indexing", { body: { url }, key: org.key });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await changeStatus(t.app, { orgId: org.orgId, itemId: `p${i}`, indexingStatus: "completed" });
      assert.ok(id);
      ids.push(id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = cursor === null ? { limit: "2" } : { limit: "2", cursor };
      const page = await t.request("GET", "/webhooks/indexing/deliveries", { key: org.key, query });
      assert.equal(page.status, 200);
      seen.push(...field<Array<{ delivery_id: string }>>(page.body, "deliveries").map((d) => d.delivery_id));
      cursor = field<string | null>(page.body, "next_cursor");
    } while (cursor !== null);
    assert.deepEqual(new Set(seen), new Set(ids));
    assert.equal(seen.length, 5);
    const pending = await t.request("GET", "/webhooks/indexing/deliveries", { key: org.key, query: { status: "pending" } });
    assert.equal(field(pending.body, "count"), 5);
    const delivered = await t.request("GET", "/webhooks/indexing/deliveries", { key: org.key, query: { status: "delivered" } });
    assert.equal(field(delivered.body, "count"), 0);
    assert.equal((await t.request("GET", "/webhooks/indexing/deliveries", { key: org.key, query: { status: "bogus" } })).status, 400);
    assert.equal((await t.request("GET", "/webhooks/indexing/deliveries", { key: org.key, query: { cursor: "xyz" } })).status, 400);
  });
});
