import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { chooseScope, launchBrowser, newConsolePage, openConsole, waitForCount } from "../helpers/browser.js";
import { ingestApp, sourceIds, listContext } from "../helpers/context.js";
import { createReadyDatabase, field, startTestApp, type TestApp } from "../helpers/harness.js";
import { ingestMultipart, waitTerminal } from "../helpers/ingest.js";
import { GUIDE_MD } from "./fixtures.js";

let browser: Browser;
let app: TestApp;
before(async () => {
  browser = await launchBrowser();
  app = await startTestApp();
  await createReadyDatabase(app, "kb", { database_metadata_schema: [{ name: "team", data_type: "VARCHAR", enable_match: true }] });
  await ingestApp(app, "kb", [
    { id: "note-eng", type: "note", title: "Build notes", content: { text: "How the build works." }, metadata: { team: "eng" } },
    { id: "note-ops", type: "note", title: "On-call notes", content: { text: "Who is on call." }, metadata: { team: "ops" } },
  ]);
  const res = await ingestMultipart(
    app,
    { type: "knowledge", database: "kb", document_metadata: JSON.stringify([{ id: "guide", title: "Deployment guide" }]) },
    [{ name: "guide.md", content: GUIDE_MD, type: "text/markdown" }],
  );
  assert.equal(res.status, 202, res.text);
  await waitTerminal(app, "kb", ["guide"]);
});
after(async () => {
  await browser.close();
  await app.close();
});

test("items: full-text search over titles and text, with the other filters, a word at a time", async (t) => {
  const { page, context, problems } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/items");
  await chooseScope(page, "kb");
  const titles = async () => (await page.getByTestId("item-link").allTextContents()).sort();
  await waitForCount(page.getByTestId("item-link"), 3);

  // A word of the text only (the guide's rollback section), in another case.
  const listed = page.waitForRequest((r) => r.url().endsWith("/context/list") && r.method() === "POST");
  await page.getByTestId("filter-search").fill("CONTAINER");
  await page.getByTestId("apply-filters").click();
  assert.equal((((await listed).postDataJSON() as Record<string, unknown>) ?? {}).search, "CONTAINER");
  await waitForCount(page.getByTestId("item-link"), 1);
  assert.deepEqual(await titles(), ["Deployment guide"]);

  // Words of the title: both notes; with the metadata filter, only the eng one.
  await page.getByTestId("filter-search").fill("notes");
  await page.getByTestId("apply-filters").click();
  await waitForCount(page.getByTestId("item-link"), 2);
  assert.deepEqual(await titles(), ["Build notes", "On-call notes"]);
  await page.getByTestId("filter-metadata").fill('{"team": "eng"}');
  await page.getByTestId("apply-filters").click();
  await waitForCount(page.getByTestId("item-link"), 1);
  assert.deepEqual(await titles(), ["Build notes"]);

  // Every word must occur; none does here, and the page says so.
  await page.getByTestId("filter-metadata").fill("");
  await page.getByTestId("filter-search").fill("notes container");
  await page.getByTestId("apply-filters").click();
  await page.getByTestId("items-table").getByText("No item has every word", { exact: false }).waitFor();
  assert.equal(await page.getByTestId("item-link").count(), 0);
  assert.deepEqual(problems, []);
});

test("items: browse, filter by metadata and source type, open one; edit its metadata, download its file, delete it", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/items");
  await chooseScope(page, "kb");

  const titles = () => page.getByTestId("item-link").allTextContents();
  await page.getByTestId("item-link").getByText("Deployment guide").waitFor();
  assert.deepEqual((await titles()).sort(), ["Build notes", "Deployment guide", "On-call notes"]);

  // Metadata filter (a declared, matchable field): only the eng note.
  await page.getByTestId("filter-metadata").fill('{"team": "eng"}');
  await page.getByTestId("apply-filters").click();
  await page.getByTestId("page-info").getByText("Page 1 of 1").waitFor();
  await waitForCount(page.getByTestId("item-link"), 1);
  assert.deepEqual(await titles(), ["Build notes"]);

  // A filter that is not JSON is refused in the page with a readable reason.
  await page.getByTestId("filter-metadata").fill("{team");
  await page.getByTestId("apply-filters").click();
  await page.getByTestId("error-banner").getByText("Metadata is not valid JSON", { exact: false }).waitFor();

  // Source type filter: the Markdown file only.
  await page.getByTestId("filter-metadata").fill("");
  await page.getByTestId("filter-source-type").fill("markdown");
  await page.getByTestId("apply-filters").click();
  await waitForCount(page.getByTestId("item-link"), 1);
  assert.deepEqual(await titles(), ["Deployment guide"]);

  // Open it: its indexed content and the signed download link.
  await page.getByTestId("item-link").getByText("Deployment guide").click();
  await page.getByTestId("screen-item").waitFor();
  assert.equal(await page.getByTestId("item-status").textContent(), "completed");
  assert.match((await page.getByTestId("item-content").textContent()) ?? "", /redeploy the previous container tag/);
  // Chunk by chunk, as many as the item says it has.
  const chunkCount = Number(await page.getByTestId("item-chunk-count").textContent());
  assert.ok(chunkCount >= 1, `the item has chunks (${chunkCount})`);
  assert.equal(await page.getByTestId("item-chunk").count(), chunkCount);
  assert.equal(await page.getByTestId("explore-graph").getAttribute("href"), "#/subgraph/guide");
  const href = await page.getByTestId("download-link").getAttribute("href");
  assert.ok(href, "a signed download URL");
  const download = await fetch(href);
  assert.equal(download.status, 200);
  assert.equal(await download.text(), GUIDE_MD);

  // Edit metadata: the service merges it; the page shows the saved values.
  await page.getByTestId("edit-metadata").fill('{"team": "docs"}');
  await page.getByTestId("edit-additional-metadata").fill('{"reviewed": true}');
  await page.getByTestId("save-metadata").click();
  await page.getByTestId("metadata-saved").waitFor();
  const inspected = await app.request("GET", "/context/inspect", { query: { database: "kb", id: "guide" } });
  assert.equal(field(inspected.body, "data.metadata.team"), "docs");
  assert.equal(field(inspected.body, "data.additional_metadata.reviewed"), true);
  assert.match((await page.getByTestId("edit-metadata").inputValue()).replace(/\s/g, ""), /"team":"docs"/);

  // Delete with confirmation: back to the list, and the item is gone from the service.
  await page.getByTestId("delete-item").click();
  await page.getByTestId("delete-item-confirm").click();
  await page.getByTestId("screen-items").waitFor();
  assert.deepEqual(sourceIds(await listContext(app, { database: "kb" })), ["note-eng", "note-ops"]);
  await page.getByTestId("item-link").first().waitFor();
  assert.deepEqual((await titles()).sort(), ["Build notes", "On-call notes"]);
});

test("items: an unknown item shows the service's error code and message", async (t) => {
  const { page, context } = await newConsolePage(browser);
  t.after(() => context.close());
  await openConsole(page, app.baseUrl, app.key, "#/items");
  await chooseScope(page, "kb");
  await page.goto(`${app.baseUrl}/console/#/items/no-such-item`);
  const banner = page.getByTestId("error-banner");
  await banner.waitFor();
  assert.match((await banner.getByTestId("error-code").textContent()) ?? "", /NOT_FOUND/);
  assert.ok(((await banner.getByTestId("error-message").textContent()) ?? "").length > 0);
});
