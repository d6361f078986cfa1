import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, eventually, field, startTestApp } from "../helpers/harness.js";
import { FakeNotion } from "../helpers/fake-providers/notion.js";
import { connector, connectorItems, expectStatus, SECRET_KEY, syncNow } from "./connector-fixtures.js";

const TOKEN = "ntn_fake_token";

test("notion: credentials, paged discover, page trees and database entries with block text, edits, deletions, rate limit, reconnect", async (tt) => {
  const notion = await FakeNotion.start({ token: TOKEN, workspace: "Acme Wiki" });
  tt.after(() => notion.close());
  const t = await startTestApp({ CONNECTOR_NOTION_API_URL: notion.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");

  const providers = expectStatus(await t.request("GET", "/connectors/providers"), 200, "providers").providers as Array<{
    provider: string;
    supported: boolean;
  }>;
  assert.equal(providers.find((p) => p.provider === "notion")?.supported, true);

  const wrongKeys = await t.request("POST", "/connectors", { body: { provider: "notion", database: "db", credentials: { secret: TOKEN } } });
  assert.equal(wrongKeys.status, 422);
  const refused = await t.request("POST", "/connectors", { body: { provider: "notion", database: "db", credentials: { api_token: "ntn_wrong" } } });
  assert.equal(refused.status, 422);
  assert.equal(field(refused.body, "error.code"), "CREDENTIALS_REJECTED");
  assert.equal((expectStatus(await t.request("GET", "/connectors"), 200, "list").connectors as unknown[]).length, 0, "nothing stored");

  const ada = notion.addUser("Ada Lovelace", "ada@example.com");
  // 120 paragraphs: the block list takes two pages; a toggle's children are read too.
  const handbook = notion.addPage({
    title: "Engineering handbook",
    author: ada,
    blocks: [
      { heading: "How we work" },
      ...Array.from({ length: 120 }, (_, i) => `Rule ${i + 1}`),
      { toggle: "On-call", children: ["Page the secondary after 15 minutes"] },
    ],
  });
  const deploying = notion.addPage({
    title: "Deploying",
    parent: { pageId: handbook },
    author: ada,
    blocks: ["Deploys go out at 10:00", { todo: "Tag the release", checked: true }],
  });
  const rollback = notion.addPage({ title: "Rollback", parent: { pageId: deploying }, author: ada, blocks: ["Revert the tag and redeploy"] });
  const obsolete = notion.addPage({ title: "Old notes", parent: { pageId: handbook }, author: ada, blocks: ["Nothing here matters"] });
  const meetings = notion.addDatabase("Meeting notes");
  const week1 = notion.addPage({ title: "Weekly sync 1", parent: { databaseId: meetings }, author: ada, blocks: ["Decided: ship the billing migration"] });
  const week2 = notion.addPage({ title: "Weekly sync 2", parent: { databaseId: meetings }, author: ada, blocks: ["Decided: nothing"] });

  const created = expectStatus(
    await t.request("POST", "/connectors", { body: { provider: "notion", database: "db", credentials: { api_token: TOKEN } } }),
    201,
    "create",
  );
  const id = String(created.connector_id);
  assert.equal(created.provider_account_scope, "Acme Wiki");

  // Discover pages through search two at a time; database entries are not listed on their own.
  const found: Array<{ id: string; resource_type: string }> = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = expectStatus(await t.request("GET", `/connectors/${id}/discover`, { query: { limit: "2", ...(cursor ? { cursor } : {}) } }), 200, "discover");
    found.push(...(page.resources as Array<{ id: string; resource_type: string }>));
    cursor = page.has_more === true ? String(page.next_cursor) : null;
    pages++;
  } while (cursor !== null);
  assert.ok(pages >= 3, "discover is paged");
  assert.deepEqual(
    found.map((r) => `${r.resource_type}:${r.id}`).sort(),
    [`notion_page:${handbook}`, `notion_page:${deploying}`, `notion_page:${rollback}`, `notion_page:${obsolete}`, `notion_database:${meetings}`].sort(),
  );

  expectStatus(
    await t.request("POST", `/connectors/${id}/configure`, {
      body: {
        resources: [
          { resource_id: handbook, resource_type: "notion_page" },
          { resource_id: meetings, resource_type: "notion_database" },
        ],
      },
    }),
    200,
    "configure",
  );
  const synced = await syncNow(t, id);
  assert.equal(synced.lifecycle, "active");
  assert.equal(synced.last_error, "");

  const item = (native: string) => `notion:Acme Wiki:knowledge_base:${native}`;
  const items = await connectorItems(t, id);
  assert.deepEqual([...items.keys()].sort(), [handbook, deploying, rollback, obsolete, week1, week2].map(item).sort(), "every page and entry once");
  const root = JSON.parse(items.get(item(handbook))!.content) as { title: string; fields: { body: string; created_by: { email: string } } };
  assert.equal(root.title, "Engineering handbook");
  assert.match(root.fields.body, /Rule 1\n/);
  assert.match(root.fields.body, /Rule 120/, "the second page of blocks is read");
  assert.match(root.fields.body, /\n {2}Page the secondary/, "nested blocks are read");
  assert.equal(root.fields.created_by.email, "ada@example.com");
  assert.match(items.get(item(deploying))!.content, /\[x\] Tag the release/);
  assert.equal(items.get(item(rollback))!.parent_id, item(deploying), "a sub-page points at its parent page");
  const relations = await t.app.store.db.selectFrom("context_items").select("relations").where("source_id", "=", item(deploying)).executeTakeFirstOrThrow();
  assert.deepEqual((JSON.parse(relations.relations) as { ids: string[] }).ids, [item(handbook)]);
  const meta = JSON.parse(items.get(item(week1))!.additional_metadata) as Record<string, unknown>;
  assert.equal(meta.resource_id, meetings);
  assert.equal(meta.resource_type, "notion_database");
  assert.equal(meta.notion_page_id, week1);
  assert.equal(meta.provider_account_scope, "Acme Wiki");

  // At the provider, two minutes later: edits, a new entry, a trashed entry and a trashed sub-page.
  notion.clock = () => Date.now() + 120_000;
  notion.editPage(week1, { blocks: ["Decided: ship the billing migration on Tuesday"] });
  notion.editPage(rollback, { title: "Rollback runbook" });
  const week3 = notion.addPage({ title: "Weekly sync 3", parent: { databaseId: meetings }, author: ada, blocks: ["Decided: hire"] });
  notion.trashPage(week2);
  notion.trashPage(obsolete);
  await syncNow(t, id);
  const after = await connectorItems(t, id);
  assert.match(after.get(item(week1))!.content, /on Tuesday/, "an edited entry shows up");
  assert.match(after.get(item(rollback))!.content, /Rollback runbook/, "an edited sub-page shows up");
  assert.ok(after.has(item(week3)), "a new entry shows up");
  assert.equal(after.has(item(week2)), false, "a trashed entry is removed");
  assert.equal(after.has(item(obsolete)), false, "a trashed sub-page is removed");
  assert.equal(after.get(item(handbook))!.generation, 1, "an unchanged page is not re-ingested");
  assert.equal(after.size, 5);

  // 429 + Retry-After: the run waits in the queue, then completes.
  notion.rateLimitNext(90);
  const started = Date.now();
  expectStatus(await t.request("POST", `/connectors/${id}/sync`), 202, "sync under rate limit");
  const waiting = await eventually(async () => {
    const jobs = await t.app.store.db.selectFrom("jobs").selectAll().where("kind", "=", "connector.sync").where("status", "=", "queued").execute();
    return jobs.find((j) => j.run_at >= started + 89_000) ?? null;
  });
  assert.ok(waiting.run_at <= Date.now() + 91_000, "rescheduled at Retry-After");
  assert.equal((await connector(t, id)).sync_status, "queued");
  await t.app.store.db.updateTable("jobs").set({ run_at: Date.now() }).where("id", "=", waiting.id).execute();
  t.app.worker.wake();
  await eventually(async () => (await connector(t, id)).sync_status === "idle", 20_000);
  assert.equal((await connector(t, id)).last_error, "");
  assert.equal((await connectorItems(t, id)).size, 5, "still every object once");

  notion.revokeToken(TOKEN);
  const broken = await syncNow(t, id);
  assert.equal(broken.lifecycle, "reconnect");
  assert.match(String(broken.needs_reauth_reason), /unauthorized|invalid/i);
});
