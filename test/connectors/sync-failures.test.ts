import assert from "node:assert/strict";
import { test } from "node:test";
import { connector, connectorItems, createSlackConnector, expectStatus, settled, startConnectorWorld, syncNow } from "./connector-fixtures.js";

const ms = (iso: unknown): number => Date.parse(String(iso));

test("provider failures (HTTP 500) go to last_error with backoff; the next attempt resumes from the checkpoint and recovers", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  for (let i = 0; i < 450; i++) slack.post("C0GENERAL", { user: "UADA0001", text: `status update number ${i}` });
  const id = await createSlackConnector(t);
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }] } }), 200, "configure");
  const control = t.app.connectors.control;
  const historyCalls = () => slack.calls.filter((c) => c.method === "conversations.history");

  // The second history page (of three: 200 per page) fails with a 500.
  slack.failCalls({ method: "conversations.history", skip: 1, count: 1 });
  expectStatus(await t.request("POST", `/connectors/${id}/sync`), 202, "sync");
  const failed = await settled(t, id);
  assert.match(String(failed.last_error), /HTTP 500/);
  assert.equal(failed.last_error_code, "PROVIDER_ERROR");
  const failedStatus = expectStatus(await t.request("GET", `/connectors/${id}/status`), 200, "status");
  assert.equal(failedStatus.error_code, "PROVIDER_ERROR");
  assert.match(String(failedStatus.error), /HTTP 500/);
  assert.equal(failed.last_successful_sync_at, null);
  assert.equal(failed.documents_dispatched, 200, "the first page was committed");
  assert.equal((await connectorItems(t, id)).size, 200);
  const delay1 = ms(failed.next_sync_at) - ms(failed.last_attempted_sync_at);
  assert.ok(delay1 >= 30_000 && delay1 <= 60_000, `first backoff within [30 s, 60 s]: ${delay1}`);
  const checkpoint = await t.app.store.db
    .selectFrom("connector_resources")
    .select(["checkpoint", "provider_cursor"])
    .where("connector_id", "=", id)
    .executeTakeFirstOrThrow();
  assert.notEqual(checkpoint.checkpoint, null, "the checkpoint survives the failure");
  assert.equal(checkpoint.provider_cursor, "", "the cursor does not move on a partial read");
  assert.equal(await control.scheduleDue(Date.now()), 0, "backed off: not due yet");

  // The next attempt fails again at once: the failure count grows, the backoff ceiling doubles.
  slack.failCalls({ method: "conversations.history", count: 1 });
  const before2 = historyCalls().length;
  assert.equal(await control.scheduleDue(ms(failed.next_sync_at) + 1), 1, "due again after the backoff");
  t.app.worker.wake();
  const again = await settled(t, id);
  assert.match(String(again.last_error), /HTTP 500/);
  assert.ok(ms(again.last_attempted_sync_at) > ms(failed.last_attempted_sync_at));
  const delay2 = ms(again.next_sync_at) - ms(again.last_attempted_sync_at);
  assert.ok(delay2 >= 30_000 && delay2 <= 120_000, `second backoff within [30 s, 120 s]: ${delay2}`);
  assert.ok(historyCalls()[before2]?.params.get("cursor"), "the retry asked for the checkpoint's page, not the first");

  // The provider recovers: the run continues from the checkpoint and completes.
  const before3 = historyCalls().length;
  assert.equal(await control.scheduleDue(ms(again.next_sync_at) + 1), 1);
  t.app.worker.wake();
  const healed = await settled(t, id);
  assert.equal(healed.last_error, "");
  assert.equal(healed.last_error_code, "", "a success clears the code with the text");
  assert.equal(expectStatus(await t.request("GET", `/connectors/${id}/status`), 200, "status").error_code, "");
  assert.equal(healed.lifecycle, "active");
  assert.notEqual(healed.last_successful_sync_at, null);
  assert.ok(historyCalls()[before3]?.params.get("cursor"), "resumed from the checkpoint");
  assert.equal(healed.documents_dispatched, 450, "no object dispatched twice");
  assert.equal((await connectorItems(t, id)).size, 450);
  const delay3 = ms(healed.next_sync_at) - ms(healed.last_attempted_sync_at);
  assert.equal(delay3, 3600_000, "after a success the regular interval applies again");
  assert.equal((await connector(t, id)).sync_cycles_completed, 1);
});

test("a run whose job is gone (dead-lettered) is replaced by the scheduler; a run with a live job is left alone", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  slack.post("C0GENERAL", { user: "UADA0001", text: "orphaned runs resume" });
  const id = await createSlackConnector(t);
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }] } }), 200, "configure");
  const control = t.app.connectors.control;
  const db = t.app.store.db;
  // A run claimed long ago whose job is still queued (waiting for a rate-limit reset): alive.
  await db.updateTable("connectors").set({ sync_state: "queued", run_id: "waiting-run", sync_heartbeat_at: 0 }).where("id", "=", id).execute();
  await t.app.queue.enqueue(
    "connector.sync",
    { connectorId: id, runId: "waiting-run" },
    { dedupeKey: "connector-sync:waiting-run:1:1", runAt: Date.now() + 3_600_000 },
  );
  assert.equal(await control.scheduleDue(Date.now()), 0, "its job will run it");
  assert.equal((await t.request("POST", `/connectors/${id}/sync`)).status, 409);
  // The job is dead-lettered: the run is orphaned and the next scheduler pass starts a new one.
  await db.updateTable("jobs").set({ status: "dead" }).where("dedupe_key", "=", "connector-sync:waiting-run:1:1").execute();
  assert.equal(await control.scheduleDue(Date.now()), 1);
  t.app.worker.wake();
  const done = await settled(t, id);
  assert.equal(done.lifecycle, "active");
  assert.equal((await connectorItems(t, id)).size, 1);
});

test("a channel the bot was removed from blocks only itself: its status says what to do, and it syncs again once the bot is back", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  slack.addChannel({ id: "C0RANDOM", name: "random" });
  slack.post("C0GENERAL", { user: "UADA0001", text: "general news" });
  slack.post("C0RANDOM", { user: "UADA0001", text: "random chatter" });
  const id = await createSlackConnector(t);
  const resources = [{ resource_id: "C0GENERAL" }, { resource_id: "C0RANDOM" }];
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources } }), 200, "configure");
  slack.setBotMember("C0RANDOM", false);
  await syncNow(t, id);

  const status = async () => expectStatus(await t.request("GET", `/connectors/${id}/status`), 200, "status");
  const blocked = await status();
  assert.equal(blocked.status, "degraded", "one resource of two failed");
  const lines = blocked.resources as Array<Record<string, unknown>>;
  const general = lines.find((r) => r.resource_id === "C0GENERAL");
  const random = lines.find((r) => r.resource_id === "C0RANDOM");
  assert.equal(general?.status, "ok");
  assert.equal(general?.action, undefined, "a healthy resource has nothing to do");
  assert.equal(random?.status, "failed");
  assert.equal(random?.retryable, false, "waiting will not mend it");
  assert.equal(random?.sync_blocked, true);
  assert.match(String(random?.sync_blocked_reason), /not_in_channel/);
  assert.match(String(random?.action), /Invite the app's bot to the channel/);
  assert.equal((await connectorItems(t, id)).size, 1, "the other channel synced");

  slack.setBotMember("C0RANDOM", true);
  await syncNow(t, id);
  const mended = await status();
  assert.equal(mended.status, "healthy");
  assert.deepEqual(
    (mended.resources as Array<Record<string, unknown>>).map((r) => [r.resource_id, r.status, r.action]),
    [
      ["C0GENERAL", "ok", undefined],
      ["C0RANDOM", "ok", undefined],
    ],
  );
  assert.equal((await connectorItems(t, id)).size, 2);
});
