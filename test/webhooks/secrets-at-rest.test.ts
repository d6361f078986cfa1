import assert from "node:assert/strict";
import { test } from "node:test";
import { describeConfig, loadConfig } from "../../src/platform/config.js";
import { SecretBox } from "../../src/features/webhooks/secret-box.js";
import { eventually, startTestApp } from "../helpers/harness.js";
import { changeStatus, deliveryWhen, finished, sharedStoreAndReceiver } from "../helpers/webhook-fixtures.js";

test("sealed secrets open only with the key that sealed them; plain ones always", () => {
  const box = new SecretBox("operator-key-1");
  const sealed = box.seal("whsec_example_secret");
  assert.match(sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.ok(!sealed.includes("whsec_example_secret"));
  assert.deepEqual(box.open(sealed), { ok: true, secret: "whsec_example_secret" });
  assert.notEqual(box.seal("whsec_example_secret"), sealed, "a fresh IV per seal");
  assert.equal(new SecretBox("another-key").open(sealed).ok, false);
  assert.equal(new SecretBox(null).open(sealed).ok, false);
  assert.deepEqual(box.open(new SecretBox(null).seal("legacy-plain-secret")), { ok: true, secret: "legacy-plain-secret" });
});

test("webhook settings are parsed once from the environment and the key is masked", () => {
  const config = loadConfig({ WEBHOOK_SECRET_KEY: "k", WEBHOOK_RETRY_BASE_MS: "25", WEBHOOK_MAX_ATTEMPTS: "4", WEBHOOK_TIMEOUT_MS: "500" });
  assert.deepEqual([config.webhookSecretKey, config.webhookRetryBaseMs, config.webhookMaxAttempts, config.webhookTimeoutMs], ["k", 25, 4, 500]);
  assert.equal(describeConfig(config).webhookSecretKey, "***");
  assert.throws(() => loadConfig({ WEBHOOK_MAX_ATTEMPTS: "0" }), /WEBHOOK_MAX_ATTEMPTS/);
  assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: "fast" }), /WEBHOOK_TIMEOUT_MS/);
});

const shared = sharedStoreAndReceiver();

test("with WEBHOOK_SECRET_KEY the stored secret is encrypted, deliveries are signed, and a wrong key fails them clearly", async () => {
  const { db, receiver } = shared;
  const env = { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_SECRET_KEY: "the-operator-key" };
  const t = await startTestApp(env, db);
  const { key, orgId } = t;
  try {
    const reg = await t.request("POST", "/webhooks/indexing", { body: { url: receiver.url, generate_signing_secret: true } });
    const secret = String(reg.body.signing_secret);
    receiver.options = { secret };
    const row = await t.app.store.db.selectFrom("webhook_endpoints").select("signing_secret").where("org_id", "=", orgId).executeTakeFirstOrThrow();
    assert.ok(row.signing_secret?.startsWith("v1."));
    assert.ok(!(row.signing_secret ?? "").includes(secret));
    const id = await changeStatus(t.app, { orgId, itemId: "sealed", indexingStatus: "completed" });
    assert.ok(id);
    assert.ok((await eventually(async () => receiver.accepted.get(id))).verified);
  } finally {
    await t.close();
  }

  const wrong = await startTestApp({ ...env, WEBHOOK_SECRET_KEY: "a-different-key" }, db);
  try {
    const id = await changeStatus(wrong.app, { orgId, itemId: "unsignable", indexingStatus: "completed" });
    assert.ok(id);
    const r = await deliveryWhen(wrong, id, finished, key);
    assert.equal(r.status, "failed");
    assert.equal(r.error_code, "SIGNING_SECRET_UNAVAILABLE");
    assert.ok(!receiver.requests.some((q) => q.deliveryId === id), "never sent unsigned");
  } finally {
    await wrong.close();
  }
});
