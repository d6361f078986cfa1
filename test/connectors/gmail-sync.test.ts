import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp } from "../helpers/harness.js";
import { FakeGmail } from "../helpers/fake-providers/gmail.js";
import { connector, connectorItems, expectStatus, SECRET_KEY, syncNow } from "./connector-fixtures.js";

const CLIENT = { client_id: "fake-client.apps.googleusercontent.com", client_secret: "fake-secret" };
const REFRESH = "1//fake-refresh-token";
const DAY = 86_400_000;

test("gmail: OAuth bundle and refresh, labels, threads as conversations, replies to old threads, deletions, rate limit, revoked grant -> reconnect", async (tt) => {
  const gmail = await FakeGmail.start({ email: "ada@example.com", refreshToken: REFRESH });
  tt.after(() => gmail.close());
  const t = await startTestApp({ CONNECTOR_GMAIL_API_URL: gmail.url, CONNECTOR_GOOGLE_TOKEN_URL: gmail.tokenUrl, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");

  const providers = expectStatus(await t.request("GET", "/connectors/providers"), 200, "providers").providers as Array<{
    provider: string;
    supported: boolean;
  }>;
  assert.equal(providers.find((p) => p.provider === "gmail")?.supported, true);

  // Credentials: a token instead of the bundle, and a revoked grant, are 422 and store nothing.
  const wrongKeys = await t.request("POST", "/connectors", { body: { provider: "gmail", database: "db", credentials: { access_token: "ya29.x" } } });
  assert.equal(wrongKeys.status, 422);
  gmail.refreshTokens.add("1//revoked");
  gmail.revokeRefreshToken("1//revoked");
  const refused = await t.request("POST", "/connectors", {
    body: { provider: "gmail", database: "db", credentials: { ...CLIENT, refresh_token: "1//revoked" } },
  });
  assert.equal(refused.status, 422);
  assert.equal(field(refused.body, "error.code"), "CREDENTIALS_REJECTED");
  assert.match(String(field(refused.body, "error.message")), /invalid_grant/);
  assert.equal((expectStatus(await t.request("GET", "/connectors"), 200, "list").connectors as unknown[]).length, 0, "nothing stored");

  const customers = gmail.addLabel("Customers");
  gmail.clock = () => Date.now() - 10 * DAY;
  const old = gmail.send({
    from: "Carol <carol@example.org>",
    to: "ada@example.com",
    subject: "Contract renewal",
    text: "Can we renew for two years?",
    labels: ["INBOX", customers],
  });
  gmail.clock = () => Date.now() - 60_000;
  const ask = gmail.send({
    from: "Bob <bob@example.org>",
    to: "ada@example.com",
    cc: "Dan <dan@example.org>",
    subject: "Invoice 42",
    text: "The invoice total looks wrong.",
    labels: ["INBOX", customers],
  });
  const mine = gmail.send({
    from: "ada@example.com",
    to: "bob@example.org",
    subject: "Re: Invoice 42",
    text: "Checking with billing.",
    labels: ["SENT"],
    replyTo: ask,
  });
  const thanks = gmail.send({
    from: "Bob <bob@example.org>",
    to: "ada@example.com",
    subject: "Re: Invoice 42",
    text: "Thanks & see you",
    labels: ["INBOX", customers],
    replyTo: mine,
    html: true,
  });
  const other = gmail.send({ from: "news@example.net", to: "ada@example.com", subject: "Newsletter", text: "Not a customer mail", labels: ["INBOX"] });
  gmail.clock = Date.now;

  const created = expectStatus(
    await t.request("POST", "/connectors", { body: { provider: "gmail", database: "db", credentials: { ...CLIENT, refresh_token: REFRESH } } }),
    201,
    "create",
  );
  const id = String(created.connector_id);
  assert.equal(created.provider_account_scope, "", "Gmail leaves the scope empty (account_email scopes the items)");
  assert.equal(created.auth_type, "oauth");
  assert.equal(JSON.stringify(created).includes(REFRESH), false, "credentials are never returned");

  const discovered = expectStatus(await t.request("GET", `/connectors/${id}/discover`), 200, "discover");
  const labels = discovered.resources as Array<{ id: string; name: string; resource_type: string }>;
  assert.ok(labels.some((l) => l.id === customers && l.name === "Customers" && l.resource_type === "gmail_label"));
  assert.ok(labels.some((l) => l.id === "INBOX"));
  assert.equal(discovered.has_more, false);
  assert.equal(
    (await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "Label_99", resource_type: "gmail_label" }] } })).status,
    400,
    "an unknown label is refused",
  );
  expectStatus(
    await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: customers, resource_type: "gmail_label" }] } }),
    200,
    "configure",
  );

  const synced = await syncNow(t, id);
  assert.equal(synced.lifecycle, "active");
  assert.equal(synced.last_error, "");
  const item = (native: string) => `gmail::email:${native}`;
  const items = await connectorItems(t, id);
  assert.deepEqual([...items.keys()].sort(), [old, ask, mine, thanks].map(item).sort(), "the label's threads, own replies included; other mail left out");
  assert.equal(items.has(item(other)), false);
  for (const m of [ask, mine, thanks]) assert.equal(items.get(item(m))!.thread_id, ask, "one conversation");
  assert.equal(items.get(item(mine))!.parent_id, item(ask));
  assert.equal(items.get(item(thanks))!.parent_id, item(ask), "a reply's parent is the thread's first mail");
  assert.equal(items.get(item(ask))!.parent_id, null);
  const rel = await t.app.store.db.selectFrom("context_items").select("relations").where("source_id", "=", item(thanks)).executeTakeFirstOrThrow();
  assert.deepEqual((JSON.parse(rel.relations) as { ids: string[] }).ids, [item(mine)], "a reply relates to the mail it answers (In-Reply-To)");
  const html = JSON.parse(items.get(item(thanks))!.content) as { fields: { body: string } };
  assert.equal(html.fields.body, "Thanks & see you", "an HTML-only mail becomes its text");
  const ask0 = JSON.parse(items.get(item(ask))!.content) as { title: string; fields: { from: string; cc: string } };
  assert.equal(ask0.title, "Invoice 42");
  assert.equal(ask0.fields.cc, "Dan <dan@example.org>");
  const meta = JSON.parse(items.get(item(ask))!.additional_metadata) as Record<string, unknown>;
  assert.equal(meta.account_email, "ada@example.com");
  assert.equal(meta.gmail_msg_id, ask);
  assert.equal(meta.thread_id, ask);
  assert.equal(meta.resource_id, customers);
  for (const m of [old, ask, mine, thanks])
    assert.deepEqual(JSON.parse(items.get(item(m))!.acl ?? "null"), ["ada@example.com"], "a mailbox's mail is its owner's");
  const findInvoice = async (principal: string): Promise<boolean> => {
    const res = await t.request("POST", "/query", { body: { database: "db", query: "Invoice 42 total looks wrong", query_apps: true, acl: [principal] } });
    assert.equal(res.status, 200);
    return (res.body.data as { chunks: Array<{ source_id: string }> }).chunks.some((c) => c.source_id === item(ask));
  };
  await eventually(() => findInvoice("ada@example.com"), 60_000, 200);
  assert.equal(await findInvoice("eve@example.org"), false, "hidden from another principal");

  // Access tokens expire: the next call answers 401, the refresh token gets a new one.
  const refreshes = gmail.refreshes;
  gmail.expireAccessTokens();
  gmail.clock = () => Date.now() + 60_000;
  const late = gmail.send({
    from: "ada@example.com",
    to: "carol@example.org",
    subject: "Re: Contract renewal",
    text: "Yes, two years works.",
    labels: ["SENT"],
    replyTo: old,
  });
  const fresh = gmail.send({
    from: "Eve <eve@example.org>",
    to: "ada@example.com",
    subject: "Onboarding",
    text: "When do we start?",
    labels: ["INBOX", customers],
  });
  gmail.trash(thanks);
  const again = await syncNow(t, id);
  assert.equal(again.last_error, "");
  assert.equal(again.lifecycle, "active");
  assert.ok(gmail.refreshes > refreshes, "the access token was refreshed");
  const after = await connectorItems(t, id);
  assert.equal(after.get(item(late))?.parent_id, item(old), "a reply to a 10-day-old thread shows up in it");
  assert.equal(after.get(item(late))?.thread_id, old);
  assert.ok(after.has(item(fresh)), "a new thread shows up");
  assert.equal(after.has(item(thanks)), false, "a trashed mail is removed");
  assert.equal(after.get(item(ask))!.generation, 1, "an unchanged mail is not re-ingested");
  assert.equal(after.size, 5);

  // 403 userRateLimitExceeded: the run is rescheduled (a minute without Retry-After), then completes.
  gmail.rateLimitNext(1, 403);
  const started = Date.now();
  expectStatus(await t.request("POST", `/connectors/${id}/sync`), 202, "sync under rate limit");
  const waiting = await eventually(async () => {
    const jobs = await t.app.store.db.selectFrom("jobs").selectAll().where("kind", "=", "connector.sync").where("status", "=", "queued").execute();
    return jobs.find((j) => j.run_at >= started + 59_000) ?? null;
  });
  assert.ok(waiting.run_at <= Date.now() + 61_000);
  assert.equal((await connector(t, id)).sync_status, "queued");
  await t.app.store.db.updateTable("jobs").set({ run_at: Date.now() }).where("id", "=", waiting.id).execute();
  t.app.worker.wake();
  await eventually(async () => (await connector(t, id)).sync_status === "idle", 20_000);
  assert.equal((await connector(t, id)).last_error, "");
  assert.equal((await connectorItems(t, id)).size, 5, "still every mail once");

  // The grant is revoked: the cached access token is refused, the refresh says invalid_grant.
  gmail.revokeRefreshToken(REFRESH);
  gmail.expireAccessTokens();
  const broken = await syncNow(t, id);
  assert.equal(broken.lifecycle, "reconnect");
  assert.equal(broken.needs_reauth, true);
  assert.match(String(broken.needs_reauth_reason), /invalid_grant/);
  gmail.refreshTokens.add("1//new-grant");
  expectStatus(await t.request("PATCH", `/connectors/${id}`, { body: { credentials: { ...CLIENT, refresh_token: "1//new-grant" } } }), 200, "patch");
  const healed = await syncNow(t, id);
  assert.equal(healed.lifecycle, "active");
  assert.equal(healed.needs_reauth, false);
  assert.equal((await connectorItems(t, id)).size, 5);
});
