import assert from "node:assert/strict";
import { test } from "node:test";
import { waitTerminal } from "../helpers/ingest.js";
import { connectorItems, expectStatus, SLACK_TOKEN, startConnectorWorld, syncNow } from "./connector-fixtures.js";

const DAY_S = 86_400;
const tsDaysAgo = (days: number, seq: number): string => `${Math.floor(Date.now() / 1000 - days * DAY_S)}.${String(seq).padStart(6, "0")}`;

test("connector settings: lookback_days bounds the first pull, custom_instructions apply from the next cycle, metadata.provider on every item", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada Lovelace", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  const old = slack.post("C0GENERAL", { user: "UADA0001", text: "The old roadmap from last month", ts: tsDaysAgo(20, 1) });
  const recent = slack.post("C0GENERAL", { user: "UADA0001", text: "The release is on Thursday", ts: tsDaysAgo(2, 2) });

  const created = expectStatus(
    await t.request("POST", "/connectors", {
      body: { provider: "slack", database: "db", credentials: { access_token: SLACK_TOKEN }, custom_instructions: "Summarise for engineers." },
    }),
    201,
    "create",
  );
  const id = String(created.connector_id);
  expectStatus(
    await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }], lookback_days: 7 } }),
    200,
    "configure",
  );
  const first = await syncNow(t, id);
  assert.equal(first.documents_dispatched, 1, "only the message inside the 7-day lookback is pulled");
  const afterFirst = await connectorItems(t, id);
  const sourceIds = [...afterFirst.keys()];
  assert.equal(sourceIds.length, 1);
  assert.ok(sourceIds[0]?.endsWith(recent), `the recent message is stored, not the one from 20 days ago (${old})`);

  const instructionsOf = async (): Promise<Map<string, string | null>> => {
    const rows = await t.app.store.db.selectFrom("context_items").select(["source_id", "custom_instructions"]).where("connector_id", "=", id).execute();
    return new Map(rows.map((r) => [r.source_id, r.custom_instructions]));
  };
  assert.deepEqual([...(await instructionsOf()).values()], ["Summarise for engineers."]);

  // New instructions: stored at once, applied to what the next cycle writes (a new message and an
  // edited one); an unchanged item keeps what it was written with.
  const patched = expectStatus(await t.request("PATCH", `/connectors/${id}`, { body: { custom_instructions: "Focus on dates." } }), 200, "patch");
  assert.equal(patched.custom_instructions_updated, true);
  const unchanged = slack.post("C0GENERAL", { user: "UADA0001", text: "Coffee machine is fixed" });
  await syncNow(t, id);
  slack.edit("C0GENERAL", recent, "The release moved to Friday");
  await syncNow(t, id);
  const instructions = await instructionsOf();
  const byEnding = (ts: string): string | null | undefined => [...instructions.entries()].find(([sourceId]) => sourceId.endsWith(ts))?.[1];
  assert.equal(byEnding(recent), "Focus on dates.", "the edited message is rewritten with the new instructions");
  assert.equal(byEnding(unchanged), "Focus on dates.", "a message first written after the change has them");
  assert.equal(instructions.size, 2);

  // Every synced item names its provider in metadata, read through the public API.
  for (const sourceId of instructions.keys()) {
    const inspected = await t.request("GET", "/context/inspect", { query: { database: "db", id: sourceId } });
    assert.equal(inspected.status, 200, inspected.text);
    const data = inspected.body.data as { metadata: Record<string, unknown>; additional_metadata: Record<string, unknown> };
    assert.equal(data.metadata.provider, "slack");
    assert.equal(data.additional_metadata.connector_id, id);
    assert.equal(data.additional_metadata.resource_id, "C0GENERAL");
  }

  // `provider` is a system key: matchable in metadata_filters though the database declares no schema.
  const ids = [...instructions.keys()];
  assert.deepEqual(
    (await waitTerminal(t, "db", ids)).map((r) => r.indexing_status),
    ["completed", "completed"],
  );
  const ask = async (provider: string): Promise<string[]> => {
    const res = await t.request("POST", "/query", {
      body: { database: "db", query: "When is the release?", query_apps: true, metadata_filters: { provider } },
    });
    assert.equal(res.status, 200, res.text);
    return (res.body.data as { chunks: Array<{ source_id: string }> }).chunks.map((c) => c.source_id);
  };
  assert.ok((await ask("slack")).includes(ids.find((i) => i.endsWith(recent)) ?? "?"), "the Slack message is found with provider: slack");
  assert.deepEqual(await ask("github"), [], "no chunk matches another provider");
});
