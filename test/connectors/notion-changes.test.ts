import assert from "node:assert/strict";
import { test } from "node:test";
import { createReadyDatabase, eventually, startTestApp, type TestApp } from "../helpers/harness.js";
import { FakeNotion } from "../helpers/fake-providers/notion.js";
import { connector, connectorItems, expectStatus, SECRET_KEY, settled, syncNow } from "./connector-fixtures.js";

const TOKEN = "ntn_fake_token";
const HOUR = 3_600_000;

/**
 * A scheduled cycle (no reconcile: the first sync reconciled): pause and resume make it due at once,
 * and the scheduler's pass is run here, not on its timer: on a 100 ms timer it also started the
 * first sync as soon as the connector was configured (configured connectors are due at once),
 * racing the on-demand one (409).
 */
async function scheduledCycle(t: TestApp, id: string): Promise<Record<string, unknown>> {
  const before = Number((await settled(t, id)).sync_cycles_completed);
  expectStatus(await t.request("POST", `/connectors/${id}/pause`), 200, "pause");
  expectStatus(await t.request("POST", `/connectors/${id}/resume`), 200, "resume");
  assert.equal(await t.app.connectors.control.scheduleDue(Date.now()), 1, "due after resume");
  t.app.worker.wake();
  await eventually(async () => Number((await connector(t, id)).sync_cycles_completed) > before, 20_000, 50);
  return settled(t, id);
}

test("notion: a page tree's later windows read only the pages edited since, found by search and their parents", async (tt) => {
  const notion = await FakeNotion.start({ token: TOKEN, workspace: "Acme Wiki" });
  tt.after(() => notion.close());
  const t = await startTestApp({ CONNECTOR_NOTION_API_URL: notion.url, CONNECTOR_SECRET_KEY: SECRET_KEY });
  tt.after(() => t.close());
  await createReadyDatabase(t, "db");

  // The workspace as it was two hours ago: a tree of 12 pages (one inside a toggle) and a page outside it.
  notion.clock = () => Date.now() - 2 * HOUR;
  const root = notion.addPage({ title: "Handbook", blocks: ["How we work", { toggle: "More", children: ["Details"] }] });
  const deploying = notion.addPage({ title: "Deploying", parent: { pageId: root }, blocks: ["Deploys go out at 10:00"] });
  const rollback = notion.addPage({ title: "Rollback", parent: { pageId: deploying }, blocks: ["Revert the tag"] });
  const inToggle = notion.addPage({ title: "Glossary", parent: { blockId: notion.toggleId(root, "More") }, blocks: ["SLO: objective"] });
  const fillers = Array.from({ length: 8 }, (_, i) => notion.addPage({ title: `Topic ${i}`, parent: { pageId: root }, blocks: [`Notes on topic ${i}`] }));
  const elsewhere = notion.addPage({ title: "Private notes", blocks: ["Not shared with the handbook"] });
  const elsewhereChild = notion.addPage({ title: "Diary", parent: { pageId: elsewhere }, blocks: ["Day one"] });

  const id = String(
    expectStatus(
      await t.request("POST", "/connectors", { body: { provider: "notion", database: "db", credentials: { api_token: TOKEN }, sync_interval_seconds: 3600 } }),
      201,
      "create",
    ).connector_id,
  );
  expectStatus(
    await t.request("POST", `/connectors/${id}/configure`, { body: { resources: [{ resource_id: root, resource_type: "notion_page" }] } }),
    200,
    "configure",
  );
  notion.http.log.length = 0;
  await syncNow(t, id);
  const firstCalls = notion.http.log.length;
  const item = (native: string) => `notion:Acme Wiki:knowledge_base:${native}`;
  const first = await connectorItems(t, id);
  assert.deepEqual([...first.keys()].sort(), [root, deploying, rollback, inToggle, ...fillers].map(item).sort(), "the first window walks the whole tree");
  assert.equal(first.get(item(inToggle))!.parent_id, item(root), "a page inside a toggle points at the page holding the toggle");

  // Nothing edited since: one search call, no page or block read.
  notion.http.log.length = 0;
  const idle = await scheduledCycle(t, id);
  assert.equal(idle.last_error, "");
  assert.equal(notion.http.count("POST /v1/search"), 1, notion.http.log.join("\n"));
  assert.equal(notion.http.count("/v1/blocks/"), 0, "no block read");
  assert.equal(notion.http.count("GET /v1/pages/"), 0, "no page read");

  // Now: a deep page edited, a new page under it, the toggle's page edited, and a page outside the tree edited.
  notion.clock = Date.now;
  notion.editPage(rollback, { blocks: ["Revert the tag and redeploy"] });
  const checklist = notion.addPage({ title: "Rollback checklist", parent: { pageId: rollback }, blocks: ["Announce in #ops"] });
  notion.editPage(inToggle, { blocks: ["SLO: service level objective"] });
  notion.editPage(elsewhereChild, { blocks: ["Day two"] });
  notion.http.log.length = 0;
  const busy = await scheduledCycle(t, id);
  assert.equal(busy.last_error, "");
  const after = await connectorItems(t, id);
  assert.match(after.get(item(rollback))!.content, /and redeploy/, "a deep page's edit shows up");
  assert.equal(after.get(item(checklist))?.parent_id, item(rollback), "a new page under it shows up, under it");
  assert.match(after.get(item(inToggle))!.content, /service level objective/, "the page inside the toggle is found through its block");
  assert.equal(after.has(item(elsewhereChild)), false, "a page outside the tree stays out");
  assert.equal(after.has(item(elsewhere)), false);
  for (const unchanged of [root, deploying, ...fillers]) assert.equal(after.get(item(unchanged))!.generation, 1, "unchanged pages are not read again");
  // Block reads only for the three changed pages of the tree (their first level has no nested blocks).
  const blockReads = notion.http.log.filter((l) => l.includes("/children"));
  assert.deepEqual(blockReads.map((l) => /\/v1\/blocks\/([^/]+)\/children/.exec(l)?.[1]).sort(), [rollback, checklist, inToggle].sort());
  assert.ok(notion.http.log.length < firstCalls / 2, `${notion.http.log.length} calls against ${firstCalls} for the first window`);
});
