import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "../helpers/harness.js";
import { connector, connectorItems, createSlackConnector, expectStatus, startConnectorWorld, syncNow } from "./connector-fixtures.js";

const DAY_S = 86_400;
const daysAgo = (days: number, seq: number): string => `${Math.floor(Date.now() / 1000) - Math.round(days * DAY_S)}.${String(seq).padStart(6, "0")}`;

test("slack threads older than the trailing week: new replies, edits to old replies and deleted replies show up after the next sync", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  const old = slack.post("C0GENERAL", { user: "UADA0001", text: "Postmortem of the March outage", ts: daysAgo(20, 1) });
  const oldReply = slack.post("C0GENERAL", { user: "UADA0001", text: "Root cause: an expired certificate", threadTs: old, ts: daysAgo(19, 2) });
  const quiet = slack.post("C0GENERAL", { user: "UADA0001", text: "Offsite planning", ts: daysAgo(25, 3) });
  const quietReplies = [
    slack.post("C0GENERAL", { user: "UADA0001", text: "Lisbon or Porto?", threadTs: quiet, ts: daysAgo(24, 4) }),
    slack.post("C0GENERAL", { user: "UADA0001", text: "Porto", threadTs: quiet, ts: daysAgo(24, 5) }),
  ];
  const lonely = slack.post("C0GENERAL", { user: "UADA0001", text: "Parking moves to level 3", ts: daysAgo(22, 8) });
  const recent = slack.post("C0GENERAL", { user: "UADA0001", text: "Release 4.2 checklist", ts: daysAgo(2, 6) });
  const recentReply = slack.post("C0GENERAL", { user: "UADA0001", text: "QA signed off", threadTs: recent, ts: daysAgo(2, 7) });

  const id = await createSlackConnector(t);
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }] } }), 200, "configure");
  await syncNow(t, id);
  const idOf = (ts: string) => `slack:${slack.teamId}:message:C0GENERAL:${ts}`;
  assert.equal((await connectorItems(t, id)).size, 8);

  // A new reply to the 20-day-old thread (its parent is outside the trailing week).
  const late = slack.post("C0GENERAL", { user: "UADA0001", text: "Follow-up: certificates now renew automatically", threadTs: old });
  await syncNow(t, id);
  let items = await connectorItems(t, id);
  assert.equal(items.get(idOf(late))?.parent_id, idOf(old), "the new reply to the old thread shows up under it");
  for (const r of quietReplies) assert.equal(items.get(idOf(r))?.generation, 1, "an unchanged old thread keeps its replies, not re-ingested");
  assert.equal(items.size, 9);

  // An edit to the 19-day-old reply, and one to a 22-day-old message without replies.
  slack.edit("C0GENERAL", oldReply, "Root cause: an expired TLS certificate on the gateway");
  slack.edit("C0GENERAL", lonely, "Parking moves to level 4");
  await syncNow(t, id);
  items = await connectorItems(t, id);
  assert.match(items.get(idOf(oldReply))!.content, /TLS certificate on the gateway/, "the edit to the old reply shows up");
  assert.match(items.get(idOf(lonely))!.content, /level 4/, "the edit to the old message shows up");

  // A reply deleted in the quiet 25-day-old thread.
  slack.remove("C0GENERAL", quietReplies[1]!);
  await syncNow(t, id);
  items = await connectorItems(t, id);
  assert.equal(items.has(idOf(quietReplies[1]!)), false, "the deleted reply is gone");
  assert.equal(items.has(idOf(quietReplies[0]!)), true, "its sibling stays");
  assert.equal(items.size, 8);

  // A scheduled cycle (no reconciliation: it ran minutes ago) still re-reads the threads of the trailing week.
  slack.edit("C0GENERAL", recentReply, "QA signed off, with two known issues");
  const cycles = Number((await connector(t, id)).sync_cycles_completed);
  const reconciledBefore = (await t.app.store.db.selectFrom("connectors").select("last_reconciled_at").where("id", "=", id).executeTakeFirstOrThrow())
    .last_reconciled_at;
  assert.equal(await t.app.connectors.control.scheduleDue(Date.now() + 3601_000), 1);
  t.app.worker.wake();
  await eventually(async () => {
    const c = await connector(t, id);
    return Number(c.sync_cycles_completed) === cycles + 1 && c.sync_status === "idle";
  }, 20_000);
  const reconciledAfter = (await t.app.store.db.selectFrom("connectors").select("last_reconciled_at").where("id", "=", id).executeTakeFirstOrThrow())
    .last_reconciled_at;
  assert.equal(reconciledAfter, reconciledBefore, "the scheduled cycle did not reconcile");
  assert.match(
    (await connectorItems(t, id)).get(idOf(recentReply))!.content,
    /two known issues/,
    "an edit in a thread of the trailing week shows up on every cycle",
  );
});
