import assert from "node:assert/strict";
import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { describeConfig, loadConfig } from "../../src/platform/config.js";
import { SecretBox } from "../../src/platform/secrets/secret-box.js";
import { FakeSlack } from "../helpers/fake-providers/slack.js";
import { createSlackConnector, SECRET_KEY, SLACK_TOKEN } from "../connectors/connector-fixtures.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { createTestDb } from "../helpers/test-db.js";

const OLD = "an-old-master-key-of-at-least-32-characters";
const NEW = "the-new-master-key-of-at-least-32-characters";

/** A value in the format written before the master key (`v1`, under a WEBHOOK_/CONNECTOR_SECRET_KEY). */
function legacySeal(material: string, purpose: string, secret: string): string {
  const key = Buffer.from(hkdfSync("sha256", material, "context-store", purpose, 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

test("sealed values name their key: the current one seals, previous ones open, legacy and plain values open", () => {
  const box = new SecretBox({ current: NEW, previous: [OLD] }, "webhook-signing-secret", { name: "WEBHOOK_SECRET_KEY", material: "legacy-key" });
  const sealed = box.seal("whsec_example_secret");
  assert.match(sealed, /^v2\.[\w-]{11}\.[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.ok(!sealed.includes("whsec_example_secret"));
  assert.notEqual(box.seal("whsec_example_secret"), sealed, "a fresh IV per seal");
  assert.deepEqual(box.open(sealed), { ok: true, secret: "whsec_example_secret" });
  assert.ok(box.isCurrent(sealed));

  const before = new SecretBox({ current: OLD, previous: [] }, "webhook-signing-secret").seal("sealed-before-rotation");
  assert.equal(box.isCurrent(before), false);
  assert.deepEqual(box.open(before), { ok: true, secret: "sealed-before-rotation" });
  const other = new SecretBox({ current: NEW, previous: [] }, "connector-credentials");
  assert.equal(other.open(sealed).ok, false, "each purpose has its own key");
  const stranger = new SecretBox({ current: OLD, previous: [] }, "webhook-signing-secret").open(sealed);
  assert.ok(!stranger.ok && /does not hold/.test(stranger.reason));

  assert.deepEqual(box.open(legacySeal("legacy-key", "webhook-signing-secret", "whsec_v1")), { ok: true, secret: "whsec_v1" });
  assert.equal(new SecretBox({ current: NEW, previous: [] }, "webhook-signing-secret").open(legacySeal("legacy-key", "webhook-signing-secret", "x")).ok, false);
  assert.deepEqual(box.open("plain.whsec_plain"), { ok: true, secret: "whsec_plain" });
  const tampered = sealed.slice(0, -2) + (sealed.endsWith("AA") ? "BB" : "AA");
  assert.equal(box.open(tampered).ok, false);
});

test("SECRET_KEY and SECRET_KEY_PREVIOUS are checked and masked", () => {
  const config = loadConfig({ SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: ` ${OLD} , ${NEW}x ` });
  assert.deepEqual([config.secretKey, config.secretKeyPrevious], [NEW, [OLD, `${NEW}x`]]);
  const shown = JSON.stringify(describeConfig(config));
  assert.ok(!shown.includes(NEW) && !shown.includes(OLD), shown);
  assert.throws(() => loadConfig({ SECRET_KEY: "short" }), /SECRET_KEY must be at least 32/);
  assert.throws(() => loadConfig({ SECRET_KEY_PREVIOUS: `${OLD},short` }), /SECRET_KEY_PREVIOUS/);
  assert.deepEqual(loadConfig({}).secretKeyPrevious, []);
});

/** The store's one webhook registration, one connector and its file-URL secret, as stored. */
async function storedSecrets(t: TestApp): Promise<{ webhook: string; credentials: string; fileUrl: string }> {
  const db = t.app.store.db;
  const webhook = await db.selectFrom("webhook_endpoints").select("signing_secret").executeTakeFirstOrThrow();
  const connector = await db.selectFrom("connectors").select("credentials").executeTakeFirstOrThrow();
  const fileUrl = await db.selectFrom("settings").select("value").where("name", "=", "file_url_secret").executeTakeFirstOrThrow();
  return { webhook: webhook.signing_secret ?? "", credentials: connector.credentials, fileUrl: fileUrl.value };
}

test("secrets at rest: sealed by default under a 0600 key file, legacy rows re-sealed at start, another key refused, rotation", async () => {
  const slack = await FakeSlack.start({ token: SLACK_TOKEN });
  const db = await createTestDb({ migrated: true });
  const env = { CONNECTOR_SLACK_API_URL: slack.url, CONNECTOR_SECRET_KEY: SECRET_KEY, WEBHOOK_ALLOW_PRIVATE_URLS: "true" };
  let t: TestApp = await startTestApp(env, db);
  try {
    const keyFile = join(db.dataDir, "secret.key");
    assert.equal(statSync(keyFile).mode & 0o777, 0o600, "the generated key file is private");
    await createReadyDatabase(t, "db");
    await createSlackConnector(t);
    const reg = await t.request("POST", "/webhooks/indexing", { body: { url: "http://127.0.0.1:10/in", generate_signing_secret: true } });
    assert.equal(reg.status, 200, reg.text);
    const signing = String(reg.body.signing_secret);
    const sealed = await storedSecrets(t);
    for (const [what, value] of Object.entries(sealed)) assert.match(value, /^v2\./, `${what} sealed`);
    assert.ok(!sealed.webhook.includes(signing) && !sealed.credentials.includes(SLACK_TOKEN));
    assert.ok(t.app.secrets.webhooks.isCurrent(sealed.webhook) && t.app.secrets.connectors.isCurrent(sealed.credentials));
    const fileUrl = t.app.secrets.fileUrl.open(sealed.fileUrl);
    assert.ok(fileUrl.ok);
    await t.close();

    // Rows as an older version left them: plaintext, v1 under CONNECTOR_SECRET_KEY, a bare file-URL secret.
    const writer = await startTestApp(env, db);
    t = writer;
    await writer.app.store.db
      .updateTable("webhook_endpoints")
      .set({ signing_secret: `plain.${signing}` })
      .execute();
    await writer.app.store.db
      .updateTable("connectors")
      .set({ credentials: legacySeal(SECRET_KEY, "connector-credentials", JSON.stringify({ access_token: SLACK_TOKEN })) })
      .execute();
    await writer.app.store.db.updateTable("settings").set({ value: "bare-legacy-file-url-secret" }).where("name", "=", "file_url_secret").execute();
    await writer.close();

    t = await startTestApp(env, db);
    const resealed = await storedSecrets(t);
    assert.ok(t.app.secrets.webhooks.isCurrent(resealed.webhook), resealed.webhook.slice(0, 20));
    assert.ok(t.app.secrets.connectors.isCurrent(resealed.credentials), resealed.credentials.slice(0, 20));
    assert.ok(t.app.secrets.fileUrl.isCurrent(resealed.fileUrl), resealed.fileUrl.slice(0, 20));
    assert.deepEqual(t.app.secrets.webhooks.open(resealed.webhook), { ok: true, secret: signing });
    assert.deepEqual(t.app.secrets.connectors.open(resealed.credentials), { ok: true, secret: JSON.stringify({ access_token: SLACK_TOKEN }) });
    assert.deepEqual(t.app.secrets.fileUrl.open(resealed.fileUrl), { ok: true, secret: "bare-legacy-file-url-secret" });
    await t.close();

    // A process with another master key does not start on this store.
    await assert.rejects(startTestApp({ ...env, SECRET_KEY: NEW }, db), /sealed with master key .* SECRET_KEY_PREVIOUS/s);
    // Rotation: the new key, with the old one as previous; afterwards the new key alone.
    const fileKey = readFileSync(keyFile, "utf8").trim();
    t = await startTestApp({ ...env, SECRET_KEY: NEW, SECRET_KEY_PREVIOUS: fileKey }, db);
    const rotated = await storedSecrets(t);
    assert.ok(t.app.secrets.webhooks.isCurrent(rotated.webhook) && rotated.webhook !== resealed.webhook);
    await t.close();
    t = await startTestApp({ ...env, SECRET_KEY: NEW }, db);
    assert.deepEqual(t.app.secrets.webhooks.open((await storedSecrets(t)).webhook), { ok: true, secret: signing });
    await t.close();
    await assert.rejects(startTestApp(env, db), /sealed with master key/, "the old key file no longer opens the store");
  } finally {
    await t.close().catch(() => undefined);
    await slack.close();
    await db.drop();
  }
});

test("a key file others can read is refused at start", async () => {
  const db = await createTestDb({ migrated: true });
  try {
    const keyFile = join(db.dataDir, "secret.key");
    writeFileSync(keyFile, `${randomBytes(32).toString("base64url")}\n`);
    chmodSync(keyFile, 0o644);
    await assert.rejects(startTestApp({}, db), /readable by others .*chmod 600/);
  } finally {
    await db.drop();
  }
});
