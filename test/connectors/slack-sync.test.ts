import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually, field } from "../helpers/harness.js";
import { connector, connectorItems, createSlackConnector, expectStatus, SLACK_TOKEN, startConnectorWorld, syncNow } from "./connector-fixtures.js";

test("slack: lifecycle, edits, new replies to old threads, deletions, private-channel ACL, reconnect", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada Lovelace", email: "ada@example.com" });
  slack.addUser({ id: "UBOB0001", name: "Bob Builder", email: "bob@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  slack.addChannel({ id: "C0SECRET", name: "secret", isPrivate: true, members: ["UADA0001"] });
  const root = slack.post("C0GENERAL", { user: "UADA0001", text: "The billing migration starts Monday" });
  slack.post("C0GENERAL", { user: "UBOB0001", text: "Which tables move first?", threadTs: root });
  const other = slack.post("C0GENERAL", { user: "UBOB0001", text: "Lunch order is in the kitchen" });
  slack.post("C0SECRET", { user: "UADA0001", text: "Acquisition talks with Initech" });

  const created = expectStatus(
    await t.request("POST", "/connectors", { body: { provider: "slack", database: "db", credentials: { access_token: SLACK_TOKEN } } }),
    201,
    "create",
  );
  const id = String(created.connector_id);
  assert.equal(created.lifecycle, "pending_setup");
  assert.equal(created.provider_account_scope, slack.teamId, "the scope comes from auth.test");
  assert.equal(created.sync_interval_seconds, 3600);
  assert.equal(JSON.stringify(created).includes(SLACK_TOKEN), false, "credentials are never returned");

  const discovered = expectStatus(await t.request("GET", `/connectors/${id}/discover`), 200, "discover");
  assert.deepEqual((discovered.resources as Array<{ id: string }>).map((r) => r.id).sort(), ["C0GENERAL", "C0SECRET"]);
  assert.equal(discovered.has_more, false);

  const configured = expectStatus(
    await t.request("POST", `/connectors/${id}/configure`, {
      body: { resources: [{ resource_id: "C0GENERAL", resource_type: "channel" }, { resource_id: "C0SECRET" }] },
    }),
    200,
    "configure",
  );
  assert.deepEqual(configured, { connector_id: id, configured: 2, backfill: false });
  assert.equal((await connector(t, id)).lifecycle, "ingesting", "configured but never pulled");

  // Hold the fake's answers to catch the run in the middle.
  const release = slack.http.hold();
  const sync = expectStatus(await t.request("POST", `/connectors/${id}/sync`), 202, "sync");
  assert.equal(sync.workflow_id, `connector-sync-${id}`);
  assert.equal(typeof sync.run_id, "string");
  await eventually(async () => (await connector(t, id)).lifecycle === "syncing");
  assert.equal((await t.request("POST", `/connectors/${id}/sync`)).status, 409, "a second sync while one runs is 409");
  release();
  const after = await eventually(async () => {
    const c = await connector(t, id);
    return c.lifecycle === "active" ? c : null;
  }, 20_000);
  assert.equal(after.last_error, "");
  assert.equal(after.documents_dispatched, 4);
  assert.equal(after.sync_cycles_completed, 1);
  const resources = expectStatus(await t.request("GET", `/connectors/${id}/resources`), 200, "resources");
  for (const r of resources.resources as Array<{ provider_cursor: string }>) assert.match(r.provider_cursor, /^\d+\.\d{6}$/);

  const items = await connectorItems(t, id);
  const idOf = (ts: string, ch = "C0GENERAL") => `slack:${slack.teamId}:message:${ch}:${ts}`;
  assert.equal(items.size, 4);
  const reply = [...items.entries()].find(([k]) => k !== idOf(root) && k !== idOf(other) && k.includes("C0GENERAL"));
  assert.ok(reply, "the reply is its own item");
  assert.equal(reply[1].parent_id, idOf(root));
  assert.equal(reply[1].thread_id, `C0GENERAL:${root}`);
  const meta = JSON.parse(items.get(idOf(root))!.additional_metadata) as Record<string, unknown>;
  assert.equal(meta.connector_id, id);
  assert.equal(meta.resource_id, "C0GENERAL");
  assert.equal(meta.provider_account_scope, slack.teamId);
  assert.equal(meta.slack_ts, root);
  assert.equal(items.get(idOf(root))!.acl, null, "a public channel is unrestricted");
  const secret = [...items.entries()].find(([k]) => k.includes("C0SECRET"));
  assert.deepEqual(JSON.parse(secret![1].acl!), ["ada@example.com"], "a private channel's items carry its members");

  // query_apps: connector items only when asked for.
  await eventually(async () => {
    const q = await t.request("POST", "/query", { body: { database: "db", query: "billing migration", query_apps: true, query_by: "text" } });
    return (field<unknown[]>(q.body, "data.chunks") ?? []).length > 0;
  }, 20_000);
  const without = await t.request("POST", "/query", { body: { database: "db", query: "billing migration", query_by: "text" } });
  assert.equal(field<unknown[]>(without.body, "data.chunks").length, 0, "without query_apps synced data stays out");

  // At the provider: an edit, a new reply to the (now old) thread, a deletion.
  slack.edit("C0GENERAL", root, "The billing migration moved to Tuesday");
  const late = slack.post("C0GENERAL", { user: "UADA0001", text: "Invoices first, then payments", threadTs: root });
  slack.remove("C0GENERAL", other);
  const cursorsBefore = (resources.resources as Array<{ resource_id: string; provider_cursor: string }>).map((r) => r.provider_cursor);
  await syncNow(t, id);
  const next = await connectorItems(t, id);
  assert.match(next.get(idOf(root))!.content, /moved to Tuesday/, "the edit shows up");
  assert.equal(next.get(idOf(late))?.parent_id, idOf(root), "the late reply shows up under its thread");
  assert.equal(next.has(idOf(other)), false, "the deleted message is gone");
  assert.equal(next.get(reply[0])!.generation, 1, "an unchanged message is not re-ingested");
  assert.equal(next.size, 4, "every object stored once");
  const cursorsAfter = (
    expectStatus(await t.request("GET", `/connectors/${id}/resources`), 200, "resources").resources as Array<{ provider_cursor: string }>
  ).map((r) => r.provider_cursor);
  assert.notDeepEqual(cursorsAfter, cursorsBefore, "the cursor advances after every successful pull, also an empty one");

  // The token is revoked: reconnect, no scheduling, until new credentials are PATCHed.
  slack.revokeToken(SLACK_TOKEN);
  await syncNow(t, id);
  const broken = await connector(t, id);
  assert.equal(broken.lifecycle, "reconnect");
  assert.equal(broken.needs_reauth, true);
  assert.match(String(broken.needs_reauth_reason), /token_revoked/);
  assert.equal(expectStatus(await t.request("GET", `/connectors/${id}/status`), 200, "status").error_code, "REAUTH_REQUIRED");
  assert.equal(broken.next_sync_at, null);
  assert.equal(await t.app.connectors.control.scheduleDue(Date.now() + 30 * 86_400_000), 0, "the scheduler skips it");
  assert.equal((await t.request("POST", `/connectors/${id}/sync`)).status, 409);
  const rejected = await t.request("PATCH", `/connectors/${id}`, { body: { credentials: { access_token: SLACK_TOKEN } } });
  assert.equal(rejected.status, 422, "a refused credential is not stored");
  assert.equal(field(rejected.body, "error.code"), "CREDENTIALS_REJECTED");
  slack.tokens.add("xoxb-new-token");
  const patched = expectStatus(await t.request("PATCH", `/connectors/${id}`, { body: { credentials: { api_token: "xoxb-new-token" } } }), 200, "patch");
  assert.equal(patched.credentials_updated, true);
  assert.equal((await connector(t, id)).lifecycle, "active");
  const healed = await syncNow(t, id);
  assert.equal(healed.lifecycle, "active");
  assert.equal(healed.needs_reauth, false);
  assert.equal((await connectorItems(t, id)).size, 4);
});

test("slack: a 429 reschedules the run at Retry-After instead of sleeping; the run then completes", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  slack.post("C0GENERAL", { user: "UADA0001", text: "hello rate limits" });
  const id = await createSlackConnector(t);
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }] } }), 200, "configure");
  slack.rateLimitNext(120);
  const started = Date.now();
  expectStatus(await t.request("POST", `/connectors/${id}/sync`), 202, "sync");
  const waiting = await eventually(async () => {
    const jobs = await t.app.store.db.selectFrom("jobs").selectAll().where("kind", "=", "connector.sync").where("status", "=", "queued").execute();
    return jobs.find((j) => j.run_at >= started + 119_000) ?? null;
  });
  assert.ok(waiting.run_at <= Date.now() + 121_000, "rescheduled at the Retry-After time");
  assert.equal((await connector(t, id)).sync_status, "queued", "the run waits; no worker sleeps");
  assert.equal((await t.request("POST", `/connectors/${id}/sync`)).status, 409, "still one run at a time");
  // Let the clock pass the reset: the waiting job becomes due now.
  await t.app.store.db.updateTable("jobs").set({ run_at: Date.now() }).where("id", "=", waiting.id).execute();
  t.app.worker.wake();
  const done = await eventually(async () => {
    const c = await connector(t, id);
    return c.lifecycle === "active" ? c : null;
  }, 20_000);
  assert.equal(done.documents_dispatched, 1);
  assert.equal((await connectorItems(t, id)).size, 1);
});
