import assert from "node:assert/strict";
import { test } from "node:test";
import { ingestApp } from "../helpers/context.js";
import { eventually, field } from "../helpers/harness.js";
import { createSlackConnector, expectStatus, startConnectorWorld, syncNow } from "./connector-fixtures.js";

test("query_apps: thinking mode's forceful relations, connected items and graph context leave connector items out unless asked", async (tt) => {
  const w = await startConnectorWorld();
  tt.after(() => w.close());
  const { t, slack } = w;
  slack.addUser({ id: "UADA0001", name: "Ada Lovelace", email: "ada@example.com" });
  slack.addChannel({ id: "C0GENERAL", name: "general" });
  const root = slack.post("C0GENERAL", { user: "UADA0001", text: "Quokka credentials change every Friday; Grace Hopper owns the Quokka vault" });
  const id = await createSlackConnector(t);
  expectStatus(await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: "C0GENERAL" }] } }), 200, "configure");
  await syncNow(t, id);
  const synced = `slack:${slack.teamId}:message:C0GENERAL:${root}`;
  const syncedRow = await eventually(async () => {
    const row = await t.app.store.db.selectFrom("context_items").select(["id", "status"]).where("source_id", "=", synced).executeTakeFirst();
    return row?.status === "completed" ? row : null;
  }, 30_000);

  // A plain item (not a connector's) that points at the synced message.
  await ingestApp(t, "db", [
    {
      id: "plan",
      type: "note",
      title: "Rotation plan",
      content: { text: "The rotation plan for the zebra service lists its owners." },
      relations: { ids: [synced] },
    },
  ]);

  const ask = async (body: Record<string, unknown>): Promise<string> => {
    const res = expectStatus(
      await t.request("POST", "/query", {
        body: { database: "db", query: "zebra rotation plan", query_by: "text", mode: "thinking", graph_context: true, ...body },
      }),
      200,
      "query",
    );
    assert.ok(field<unknown[]>(res, "data.chunks").length > 0, "the plain item is found");
    return JSON.stringify(res);
  };
  // The plain item's own extra_context_ids name the synced id (the user's data); its content,
  // chunks and graph must not appear.
  const mentionsSynced = (text: string): boolean => text.includes("Quokka") || text.includes(syncedRow.id) || text.includes(`"source_id":"${synced}"`);

  // With query_apps the connector item is reachable both ways: this is what must disappear without it.
  const extras = (text: string): string => JSON.stringify(field(JSON.parse(text), "data.additional_context"));
  await eventually(async () => mentionsSynced(extras(await ask({ query_apps: true, query_forceful_relations: true }))), 20_000);
  await eventually(async () => mentionsSynced(extras(await ask({ query_apps: true, query_forceful_relations: false }))), 20_000);

  for (const forceful of [true, false]) {
    const text = await ask({ query_forceful_relations: forceful });
    assert.equal(mentionsSynced(text), false, `without query_apps nothing of the connector item appears (forceful: ${forceful}): ${text.slice(0, 400)}`);
    const explicit = await ask({ query_forceful_relations: forceful, query_apps: false });
    assert.equal(mentionsSynced(explicit), false, `query_apps: false (forceful: ${forceful})`);
  }

  // The results themselves: a query in the synced message's words finds it only with query_apps.
  const finds = async (body: Record<string, unknown>): Promise<boolean> => {
    const res = expectStatus(await t.request("POST", "/query", { body: { database: "db", query: "Quokka credentials Friday", ...body } }), 200, "query");
    return field<Array<{ source_id: string }>>(res, "data.chunks").some((c) => c.source_id === synced);
  };
  for (const mode of [{ mode: "fast" }, { mode: "thinking" }, { query_by: "text" }]) {
    assert.equal(await finds({ ...mode, query_apps: true }), true, `found with query_apps (${JSON.stringify(mode)})`);
    assert.equal(await finds(mode), false, `not found without query_apps (${JSON.stringify(mode)})`);
  }
});
