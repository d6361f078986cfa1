import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { chooseScope, launchBrowser, newConsolePage, openConsole } from "../helpers/browser.js";
import { ingestApp } from "../helpers/context.js";
import { clickNode, doubleClickNode } from "../helpers/graph-canvas.js";
import { createReadyDatabase, startTestApp, type TestApp } from "../helpers/harness.js";
import { SLACK_ROOT, slackThread } from "../context-graph/graph-fixtures.js";

// A chain of documents, each referencing the next: at depth 1 every expansion reaches one more.
// The last id holds a "/" (a repository path), which must travel through the explorer intact.
const chainIds = ["doc-a", "doc-b", "doc-c", "notes/doc-d"];
const chain = chainIds.map((id, i) => ({
  id,
  type: "document",
  title: `Design note ${i + 1}`,
  content: { text: `Design note ${i + 1} about the billing service.` },
  ...(i < chainIds.length - 1 ? { relations: { ids: [chainIds[i + 1] ?? ""] } } : {}),
}));

let browser: Browser;
let app: TestApp;
before(async () => {
  browser = await launchBrowser();
  app = await startTestApp();
  await createReadyDatabase(app, "graphs");
  await ingestApp(app, "graphs", [...slackThread, ...chain]);
});
after(async () => {
  await browser.close();
  await app.close();
});

const attributes = async (page: Page, testId: string, name: string): Promise<string[]> =>
  (await Promise.all((await page.getByTestId(testId).all()).map(async (row) => (await row.getAttribute(name)) ?? ""))).sort();
const nodeIds = (page: Page): Promise<string[]> => attributes(page, "graph-node", "data-node-id");
const edgeLabels = (page: Page): Promise<string[]> => attributes(page, "graph-edge", "data-label");
const listed = (page: Page, nodeId: string) => page.locator(`[data-testid="graph-node"][data-node-id="${nodeId}"]`);

async function openExplorer(page: Page, id: string, depth: number): Promise<void> {
  await openConsole(page, app.baseUrl, app.key, "#/subgraph");
  await chooseScope(page, "graphs");
  await page.getByTestId("subgraph-depth").fill(String(depth));
  await page.getByTestId("subgraph-depth").dispatchEvent("change");
  await page.getByTestId("subgraph-id").fill(id);
  await page.getByTestId("subgraph-open").click();
  await page.getByTestId("subgraph-summary").waitFor();
}

test("a Slack thread: its messages, the people who sent and are mentioned, and how they relate, on the canvas and in the lists", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  const root = `slack:message:${SLACK_ROOT}`;
  await openExplorer(page, root, 1);
  assert.equal(new URL(page.url()).hash, `#/subgraph/${encodeURIComponent(root)}`);

  const items = slackThread.map((m) => `item:slack:message:${m.external_id}`);
  await listed(page, items[2] ?? "").waitFor();
  const nodes = await nodeIds(page);
  for (const item of items) assert.ok(nodes.includes(item), `${item} is listed`);
  const actors = await page.locator('[data-testid="graph-node"][data-kind="ACTOR"]').allTextContents();
  assert.ok(
    actors.some((a) => a.includes("ada")),
    `the sender is an entity node: ${actors.join(", ")}`,
  );
  assert.ok(
    actors.some((a) => a.includes("@bob")),
    `the mentioned person is an entity node: ${actors.join(", ")}`,
  );
  const labels = await edgeLabels(page);
  for (const label of ["same_thread", "sent", "mentions"]) assert.ok(labels.includes(label), `a ${label} edge is listed: ${labels.join(", ")}`);

  // The canvas draws what the lists list.
  const canvas = page.getByTestId("graph-canvas");
  assert.equal(Number(await canvas.getAttribute("data-node-count")), nodes.length);
  assert.equal(Number(await canvas.getAttribute("data-edge-count")), labels.length);

  // A click on a node on the canvas selects it and shows its fields.
  await clickNode(page, items[1] ?? "");
  const details = page.getByTestId("node-details");
  await details.waitFor();
  assert.equal(await details.getAttribute("data-node-id"), items[1]);
  assert.equal(await page.getByTestId("node-details-label").textContent(), "Looking into it now");
  assert.match((await details.textContent()) ?? "", /discovered_relation\s*same_thread/);
  assert.deepEqual(problems, []);
});

test("expanding: a double-click on the canvas and the Expand button merge a node's own subgraph; Open item goes to the item", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openExplorer(page, "doc-a", 1);
  await listed(page, "item:doc-b").waitFor();
  assert.deepEqual(await nodeIds(page), ["item:doc-a", "item:doc-b"]);
  assert.deepEqual(await edgeLabels(page), ["references"]);

  await doubleClickNode(page, "item:doc-b");
  await listed(page, "item:doc-c").waitFor();
  assert.deepEqual(await nodeIds(page), ["item:doc-a", "item:doc-b", "item:doc-c"]);
  assert.deepEqual(await edgeLabels(page), ["references", "references"]);
  assert.equal(Number(await page.getByTestId("graph-canvas").getAttribute("data-node-count")), 3);

  // Choosing a node in the list selects it like a tap; Expand fetches its subgraph.
  await listed(page, "item:doc-c").getByRole("button").click();
  assert.equal(await page.getByTestId("node-details").getAttribute("data-node-id"), "item:doc-c");
  await page.getByTestId("node-expand").click();
  await listed(page, "item:notes/doc-d").waitFor();
  assert.deepEqual(await nodeIds(page), ["item:doc-a", "item:doc-b", "item:doc-c", "item:notes/doc-d"]);
  assert.equal(await page.getByTestId("node-expand").textContent(), "Expanded");

  await listed(page, "item:notes/doc-d").getByRole("button").click();
  await page.getByTestId("node-open-item").click();
  await page.getByTestId("screen-item").waitFor();
  assert.equal(new URL(page.url()).hash, "#/items/notes%2Fdoc-d");
  assert.deepEqual(problems, []);
});

test("an id that is not in the database says so instead of drawing an empty canvas", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/subgraph");
  await chooseScope(page, "graphs");
  await page.getByTestId("subgraph-id").fill("no-such-item");
  await page.getByTestId("subgraph-open").click();
  await page.getByTestId("subgraph-empty").waitFor();
  assert.match((await page.getByTestId("subgraph-empty").textContent()) ?? "", /No item with this id in graphs/);
  assert.equal(await page.getByTestId("graph-node").count(), 0);
});
